"""The rulebook's worked examples (rules.md section C) as step-throughs on real squares.

>>> from leopard_tutor.examples import WORKED_EXAMPLES
>>> c3 = WORKED_EXAMPLES[2]
>>> c3.key, [step.value for step in c3.steps], [step.value for step in c3.mirrored.steps]
('C3', [1, 8], [1, 6])
"""

from .model import ExampleFormatError, MissingExample, Step, WorkedExample, load_examples

WORKED_EXAMPLES: tuple[WorkedExample, ...]
NOT_RECONSTRUCTED: tuple[MissingExample, ...]
WORKED_EXAMPLES, NOT_RECONSTRUCTED = load_examples()

__all__ = ["NOT_RECONSTRUCTED", "WORKED_EXAMPLES", "ExampleFormatError", "MissingExample", "Step", "WorkedExample",
           "load_examples"]
