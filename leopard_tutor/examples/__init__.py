"""The published worked examples (Abbott's and HowStuffWorks') (rules.md section C) as step-throughs on real squares.

>>> from leopard_tutor.examples import WORKED_EXAMPLES
>>> c3 = WORKED_EXAMPLES[2]
>>> c3.key, [step.value for step in c3.steps], [step.value for step in c3.mirrored.steps]
('C3', [1, 8], [1, 6])
"""

from typing import TYPE_CHECKING, Any

from .model import (
    ExampleFormatError,
    MissingExample,
    Step,
    WorkedExample,
    current_examples,
    examples_in,
    load_examples,
)

if TYPE_CHECKING:
    WORKED_EXAMPLES: tuple[WorkedExample, ...]
    """The worked examples, with their words in the language texts are read in when asked for
    (`current_examples()`), loaded once per language."""
    NOT_RECONSTRUCTED: tuple[MissingExample, ...]
    """The examples of the source that cannot be rebuilt, in the same language."""


def __getattr__(name: str) -> Any:
    if name == "WORKED_EXAMPLES":
        return current_examples()[0]
    if name == "NOT_RECONSTRUCTED":
        return current_examples()[1]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["NOT_RECONSTRUCTED", "WORKED_EXAMPLES", "ExampleFormatError", "MissingExample", "Step", "WorkedExample",
           "current_examples", "examples_in", "load_examples"]
