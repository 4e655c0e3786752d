"""Serving the app to a class: Voilà and its limits (`launch.py`), the guards on visitors' sessions (`guards.py`,
`sessions.py`, `kernel_messages.py`, `connection_gate.py`, `visitor_pace.py`), the waiting line and the kernel pool
(`waiting_line.py`, `kernel_pool.py`), and the class tables (`class_store.py`, `class_tables.py`,
`class_handlers.py`).

Nothing here is imported by a page's kernel: what a kernel shares with the server (how it proves which kernel it
is, the class tables' codes) lives in the package's root (`protocol.py`, `class_codes.py`).
"""
