"""The kernel side of the class server: what a page's kernel asks its server, and how it learns where it runs.

* `class_client`: `KernelClient`, the base of every request a kernel makes to its server (naming and proving its
  kernel, reading a refusal as a `ClassRefused`), and `ClassClient`, the class tables (open, join, move, wait);
* `student_client`: `StudentClient`, the student's record on the server, and `StudentRecord`, which keeps it up to
  date from one background thread without holding up a click (but a typed name, told at once: it may be refused);
* `kernel_request`: a preheated kernel waits until the server hands it to a visitor, then reads their request;
* `host`: where the app runs (a Voilà kernel, or Pyodide in the visitor's browser) and the address it was opened at.

What the kernel and the server say to each other is `protocol.py`, which the server reads too; the server never
imports this package. What both sides check the same way (table codes, players' names) is `class_codes.py`.
"""
