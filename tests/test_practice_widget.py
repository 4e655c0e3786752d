"""The Practice section in plain pytest: each kind of question answered right and wrong through the board."""

from __future__ import annotations

import pytest
from keyed import keys_in, mark, said

from leopard_tutor.engine import Play
from leopard_tutor.engine.catalogue import text
from leopard_tutor.lessons import BestPlayQuestion, PlacementQuestion, Practice, Progress, ValueQuestion
from leopard_tutor.table.practice_table import PracticeController
from leopard_tutor.table.sentences import places_words
from leopard_tutor.widgets.practice import PracticeSection


def new_section(kind: str | None = None) -> tuple[PracticeSection, PracticeController]:
    controller = PracticeController(Practice(seed=4, progress=Progress()), kind=kind)
    return PracticeSection(controller), controller


def record(section: PracticeSection) -> list[str]:
    """The record per concept, as the board's side column lists it."""
    panel = next(panel for panel in section.board.state["aside"] if panel["list_class"] == "lt-record")
    return list(panel["items"])


def answer(section: PracticeSection, value: object) -> None:
    """Type `value` in the board's answer box and press Check."""
    section.board.dispatch({"type": "answer", "value": value})


def test_value_question_hides_the_lines_until_answered(keyed: None) -> None:
    section, controller = new_section("value")
    question = controller.question
    assert isinstance(question, ValueQuestion)
    part = section.board.state["squares"][0]
    assert part["lines"] == [] and part["value_text"] == mark("sections.practice.hidden_value")
    assert section.board.state["answer"]["enabled"] and section.board.state["answer"]["why"] == ""
    answer(section, question.solution + 1)
    assert keys_in(section.board.state["message"])[0] == "lessons.practice.value.wrong"
    assert said(section.board.state["message"], "lessons.practice.value.wrong", given=question.solution + 1,
                value=question.solution) and section.board.state["tone"] == "warn"
    part = section.board.state["squares"][0]
    this_square = mark("sections.practice.this_square")
    assert part["value_text"] == mark("board.worth", label=this_square, value=question.solution)
    assert not section.board.state["answer"]["enabled"]  # greyed, with its reason (the keyboard reaches it)
    assert section.board.state["answer"]["why"] == mark("sections.practice.answered")
    lines = mark("lessons.practice.concepts.lines")
    assert record(section) == [mark("sections.practice.record_row", concept=lines, right=0, wrong=1)]
    section.board.dispatch({"type": "action", "id": "next"})
    question = controller.question
    assert isinstance(question, ValueQuestion)
    answer(section, question.solution)
    assert keys_in(section.board.state["message"])[0] == "lessons.practice.value.right"
    assert record(section) == [mark("sections.practice.record_row", concept=lines, right=1, wrong=1)]


def test_an_empty_or_strange_answer_is_explained_and_not_counted() -> None:
    section, controller = new_section("value")
    answer(section, None)
    assert section.board.state["tone"] == "warn" and controller.practice.progress.practice == {}
    for strange in ("7", 2.5, True, [3]):
        answer(section, strange)
        assert section.board.state["tone"] == "warn" and section.board.state["error"] == ""
    assert controller.practice.progress.practice == {}
    section.board.dispatch({"type": "action", "id": "next"})
    section.kind_pick.value = "placement"
    answer(section, 3)
    assert section.board.state["message"] == text("sections.practice.not_now")


def test_placement_yes_and_no_buttons(keyed: None) -> None:
    section, controller = new_section("placement")
    board = section.board
    question = controller.question
    assert isinstance(question, PlacementQuestion)
    assert "answer" not in board.state
    assert board.state["hand"]["cards"][0]["card"]["code"] == str(question.card)
    assert [c["last"] for c in board.state["squares"][0]["cells"]].count(True) == 1
    assert all(a["note"] == "" for a in board.state["actions"] if a["id"] in ("yes", "no"))
    # the table takes no click (answered with the buttons): its card and spaces say so, greyed, as Learn's questions'
    assert board.state["inert"] == mark("sections.practice.not_now")
    board.dispatch({"type": "action", "id": "yes" if question.solution else "no"})
    assert board.state["inert"] == mark("sections.practice.answered")
    assert keys_in(board.state["message"])[0] == "lessons.practice.placement.right" and board.state["tone"] == "ok"
    greyed = [a for a in board.state["actions"] if a["id"] in ("yes", "no")]
    assert [a["enabled"] for a in greyed] == [False, False]  # greyed with their reason (the keyboard reaches them)
    assert all(a["note"] == mark("sections.practice.answered") for a in greyed)


def test_best_play_by_clicks_right_and_wrong(keyed: None) -> None:
    section, controller = new_section("best play")
    board = section.board
    question = controller.question
    assert isinstance(question, BestPlayQuestion)
    outcomes = question.outcomes()
    worse = next(m for m, value in outcomes.items() if value < max(outcomes.values()))
    index = question.hand.held[0].index(worse.card)
    for _ in range(2):  # picked again (a tap, or Escape on the board) it goes back, as in Play and Learn
        board.dispatch({"type": "select", "index": index})
    assert board.state["message"] == mark("play.put_back", the_card=worse.card.the_name)
    assert not any(card["selected"] for card in board.state["hand"]["cards"])
    board.dispatch({"type": "select", "index": index})
    board.dispatch({"type": "space", "square": 1, "space": worse.space})
    assert board.state["message"] == mark("sections.practice.own_square")
    board.dispatch({"type": "space", "square": 0, "space": worse.space})
    assert said(board.state["message"], "lessons.practice.best play.wrong", the_card=worse.card.the_name,
                space=worse.space)
    assert board.state["tone"] == "warn"
    assert controller.practice.progress.practice == {"best play": (0, 1)}
    board.dispatch({"type": "action", "id": "next"})
    question = controller.question
    assert isinstance(question, BestPlayQuestion)
    best: Play = question.solution[0]
    board.dispatch({"type": "select", "index": question.hand.held[0].index(best.card)})
    board.dispatch({"type": "space", "square": 0, "space": best.space})
    assert keys_in(board.state["message"])[0] == "lessons.practice.best play.right" and board.state["error"] == ""
    assert controller.practice.progress.practice == {"best play": (1, 1)}
    assert board.state["inert"] == mark("sections.practice.answered"), "answered: the cards take no more and say why"
    judgement = board.state["message"]
    for intent in ({"type": "select", "index": 0}, {"type": "discard"}, {"type": "space", "square": 0, "space": 1}):
        board.dispatch(intent)  # each says the question is answered, and keeps its judgement
        assert board.state["message"] == f"{mark('sections.practice.answered')} {judgement}", intent
        assert board.state["tone"] == "warn"
    assert not any(card["selected"] for card in board.state["hand"]["cards"])
    assert controller.practice.progress.practice == {"best play": (1, 1)}, "counted once"


WOULD = {"en": ("would take", "would "), "es": ("llevaría", "ría ")}
"""The conditional of the words about a play that was not made, in each language (the best play's verb, and any
verb's ending: a wrong answer's words say what both plays would do)."""


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_answer_to_which_play_scores_most_speaks_of_the_play_as_not_made(lang: str,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The board keeps the question's square once it is answered (the play is not made): the answer said "takes your
    square from 1 to 4" beside the square still worth 1. It says what the play would do, the value before being the
    one shown."""
    monkeypatch.setenv("LEOPARD_TUTOR_LANGUAGE", lang)
    for right in (True, False):
        section, controller = new_section("best play")
        question = controller.question
        assert isinstance(question, BestPlayQuestion)
        outcomes = question.outcomes()
        play = question.solution[0] if right else next(m for m, v in outcomes.items() if v < max(outcomes.values()))
        section.board.dispatch({"type": "select", "index": question.hand.held[0].index(play.card)})
        section.board.dispatch({"type": "space", "square": 0, "space": play.space})
        message, shown = section.board.state["message"], section.board.state["squares"][0]
        assert shown["value"] == question.hand.value(0) and f" {shown['value']} " in message
        assert WOULD[lang][0] in message and (right or message.count(WOULD[lang][1]) == 2), message


def test_best_play_lights_only_the_learners_own_square_and_says_so_elsewhere(keyed: None) -> None:
    """'Which play scores most' is answered on the learner's own square: a card picked lights spaces there only (not
    the other square's, nor the discard pile, which say why), a discard is answered with that reason, and a card with
    no space of that square is said to have none, not sent to a lit space that is not there. Such a card is drawn
    stuck before it is picked, with that reason on it (a beginner tapped eight of them in turn to hear it)."""
    section, controller = new_section("best play")
    board = section.board
    seen = {"goes": False, "stays": False}
    for _ in range(40):
        question = controller.question
        assert isinstance(question, BestPlayQuestion)
        view = question.hand.view(0)
        for index, card in enumerate(question.hand.held[0]):
            own = {m.space for m in view.legal_moves()
                   if isinstance(m, Play) and m.card is card and m.square_owner == 0}
            drawn = board.state["hand"]["cards"][index]
            assert drawn["playable"] == bool(own)
            assert drawn["why"] == ("" if own else mark("sections.practice.no_space", The_card=card.the_name_first))
            board.dispatch({"type": "select", "index": index})
            mine, theirs = (part for part in board.state["squares"] if part["key"] in (0, 1))
            assert {cell["space"] for cell in mine["cells"] if cell["target"]} == own
            assert not any(cell["target"] for cell in theirs["cells"])
            assert all(cell["why"] == mark("sections.practice.own_square") for cell in theirs["cells"])
            assert not board.state["discard"]["target"]
            assert board.state["discard"]["why"] == mark("sections.practice.own_square")
            if own:
                assert said(board.state["message"], "sections.practice.picked", the_card=card.the_name,
                            where=places_words({0: own}, 0, False))  # every space it may go on, said
            else:
                assert said(board.state["message"], "sections.practice.no_space", The_card=card.the_name_first)
            seen["goes" if own else "stays"] = True
        board.dispatch({"type": "discard"})
        assert board.state["message"] == mark("sections.practice.own_square")
        if all(seen.values()):
            break
        board.dispatch({"type": "action", "id": "next"})
    assert all(seen.values()), seen


def test_an_illegal_play_as_answer_is_explained_and_not_counted(keyed: None) -> None:
    section, controller = new_section("best play")
    question = controller.question
    assert isinstance(question, BestPlayQuestion)
    card = question.hand.held[0][0]
    space = next(s for s in range(1, 10) if not question.hand.check(Play(card, 0, s)))
    section.board.dispatch({"type": "select", "index": 0})
    section.board.dispatch({"type": "space", "square": 0, "space": space})
    assert said(section.board.state["message"], "lessons.practice.best play.bad_because",
                reason=question.hand.check(Play(card, 0, space)).reason)
    assert controller.practice.progress.practice == {}
    assert section.board.state["error"] == ""


def test_kind_picker_asks_a_new_question_of_that_kind() -> None:
    section, controller = new_section()
    for kind in ("placement", "best play", "value"):
        section.kind_pick.value = kind
        assert controller.question.kind == kind
    section.kind_pick.value = ""
    assert controller.kind is None


def test_rules_picker_practises_under_the_1963_rules_and_keeps_the_record(keyed: None) -> None:
    section, controller = new_section("value")
    question = controller.question
    assert isinstance(question, ValueQuestion)
    answer(section, question.solution)
    section.rules_pick.value = "ORIGINAL_1963"
    question = controller.question
    assert isinstance(question, ValueQuestion) and question.rules.key == "ORIGINAL_1963"
    assert section.board.state["turn"] == mark("sections.practice.turn", kind=mark("sections.practice.kinds.value"),
                                               rules=mark("rules.ORIGINAL_1963"))
    cells = section.board.state["squares"][0]["cells"]
    assert [c["space"] for c in cells] == [7, 8, 9, 4, 5, 6, 1, 2, 3], "drawn as the 1963 keypad"
    answer(section, question.solution)
    assert said(section.board.state["message"], "lessons.practice.value.right", value=question.solution)
    assert controller.practice.progress.practice["lines"] == (2, 0)


def test_another_language_goes_on_with_the_practice_where_it_was(keyed: None) -> None:
    """The section drawn again in another language (`place`, then `take_place`) keeps the kind of questions, the rules
    and the question on the board, unanswered; an answered one gives way to the next (the menus went back to any
    kind and the 2008 rules, with a new question: the QA's finding)."""
    section, controller = new_section()
    section.kind_pick.value = "placement"
    section.rules_pick.value = "ORIGINAL_1963"
    question = controller.question
    again_controller = PracticeController(Practice(seed=9, progress=Progress()))
    again = PracticeSection(again_controller)
    again.take_place(section.place())
    assert (again.kind_pick.value, again.rules_pick.value) == ("placement", "ORIGINAL_1963")
    assert again_controller.question is question and again_controller.result is None
    assert again.board.state["message"] == question.prompt
    assert [action["id"] for action in again.board.state["actions"]][:2] == ["yes", "no"]
    again.board.dispatch({"type": "action", "id": "yes" if question.solution else "no"})
    assert again_controller.result is not None and again_controller.result.ok
    third_controller = PracticeController(Practice(seed=9, progress=Progress()))
    third = PracticeSection(third_controller)
    third.take_place(again.place())
    assert third_controller.question is not question and third_controller.question.kind == "placement"
    assert third_controller.question.rules.key == "ORIGINAL_1963" and third_controller.result is None
