"""Serving the app to a class: Voilà and its limits (`launch.py`), the guards on visitors' sessions (`guards.py`,
`sessions.py`, `kernel_messages.py`, `connection_gate.py`, `visitor_pace.py`), the waiting line and the kernel pool
(`waiting_line.py`, `kernel_pool.py`), and the class tables (`class_store.py`, `referee.py`,
`class_handlers.py`).

Nothing here is imported by a page's kernel, and nothing here imports the page's side (`table/`, `ai/`, `widgets/`,
`client/`): what both share lives below them, in the engine and the package's root (`protocol.py`: the requests,
their words and the kernel's proof; `class_codes.py`: codes and names; `board_parts.py`: a square as the board draws
it; `hint_ladder.py`, which the lessons the server counts use).
"""
