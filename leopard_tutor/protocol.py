"""What a page's kernel and the class server say to each other: the one place both sides read (standard library only).

A kernel asks the server over HTTP, on the server's own address, under its base URL:

* `CLASS_PATH` + `mine`, `wait?known=STATE`, `tables` (GET) and `open`, `join`, `move`, `end` (POST): the class
  tables (`server/class_handlers.py`, asked by `class_client.ClassLink`). A report of the visitor's table carries
  "state", one word for all it says: a kernel that sends it back as `known` is answered once it changes, or after
  `WAIT_SECONDS`;
* `STUDENTS_PATH` + `me` (GET) and `name`, `progress`, `game`, `now`, `tried` (POST): the student's record
  (`server/student_handlers.py`, asked by `student_client.StudentLink`).

Every request names its kernel in `KERNEL_HEADER` and proves it is that kernel in `PROOF_HEADER`
(`kernel_proof.py`); bodies and answers are JSON objects; a refusal is HTTP 400 {"refused": key, "facts": {...}},
`key` a text under "classmates.refused" in the catalogue. The server tells a kernel it is a class server's by
`CLASS_TABLES_ENV` in its environment.
"""

from __future__ import annotations

KERNEL_HEADER = "X-Leopard-Kernel"
"""The request header that names the kernel asking."""
PROOF_HEADER = "X-Leopard-Kernel-Proof"
"""The request header that carries the kernel's proof (`kernel_proof.kernel_proof`)."""
CLASS_TABLES_ENV = "LEOPARD_TUTOR_CLASS_TABLES"
"""Set to "1" in the environment of a class server's kernels: they may ask for the class tables and records."""
CLASS_PATH = "leopard/class/"
"""Where the class tables' handlers are, under the server's base URL."""
STUDENTS_PATH = "leopard/students/"
"""Where the students' handlers are, under the server's base URL."""
MATCH_LENGTHS = (1, 2, 4)
"""The hands a class table's match may have (its host chooses, or the teacher for a round; none chosen: the rule
set's own length)."""
WAIT_SECONDS = 20.0
"""The longest the server holds a long poll (`wait`) before it answers anyway."""
ASK_SECONDS = 10.0
"""How long a kernel waits for the answer to an ordinary request."""
