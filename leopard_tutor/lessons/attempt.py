"""One learner's try at a lesson: moves checked by the engine, feedback in words, the hint ladder, stars."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import (
    Card,
    Discard,
    EndTurn,
    GoOut,
    Hand,
    LeopardError,
    Move,
    Play,
    PlayerView,
    Verdict,
)
from ..engine.catalogue import text
from ..engine.facts import fill
from ..engine.gains import move_gain, value_changes
from ..engine.knowledge import ANSWERS
from ..engine.narration import move_words, ran_out_words
from ..engine.turns import Passed, apply_move, play_turn
from ..hint_ladder import RUNGS, HintLadder, Rung
from .coach import coach_move
from .facts import lesson_facts, move_narration
from .goals import Goal
from .model import Lesson
from .notation import LEARNER, OPPONENT, move_text, parse_move
from .questions import StageQuestion, answer_words

MOST_INPUTS = 400
"""The most inputs an attempt is made again from (`replayed`): a long stage's moves, slips and hints, many times
over."""
HINT, ANSWER = "hint", "answer "
"""How `Attempt.inputs` writes a hint asked for, and an answer given ("answer yes")."""


@dataclass(frozen=True)
class Feedback:
    """What the tutor says about one try. `kind` is "illegal", "off-track" (legal, but taken back; or a wrong
    answer), "progress" (kept; the lesson goes on), "solved", "failed" (the hand ended short of the goal),
    "finished" or "not-now" (a move in a lesson whose task is to answer questions)."""

    ok: bool
    text: str
    kind: str
    move: Move | None = None
    verdict: Verdict | None = None
    replies: tuple[Move, ...] = ()
    stars: int = 0


class Attempt:
    """A try at `lesson` from its start position; `try_move` until `solved` (or `finished`)."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self._hand = lesson.start()
        self._step = 0
        self._order = list(range(len(lesson.solution)))
        """The solution's moves (their indexes) in the order the learner makes them: the script's, but a play of a
        turn of several made before another of the same turn, where that leads to the same square (`_same_turn`)."""
        self._replies_used = 0
        self._ladder = HintLadder(self._clues)
        self.slips = 0
        self.hints_used = 0
        self.solved = False
        self.finished = False
        self.answered = 0
        self._answer_hints = 0  # rungs shown for the question now asked
        self.hint_repeated = False
        """Whether the last hint given was the ladder's last rung shown again (a press at its top)."""
        self.inputs: list[str] = []
        """What the learner did that counts, in order: each move tried (lesson notation), a hint asked for (`HINT`),
        an answer given (`ANSWER` and the answer). The same inputs make the same attempt again (`replayed`)."""

    # -- what the learner sees ---------------------------------------------------------------
    @property
    def hand(self) -> Hand:
        """A copy of the hand as it stands (the learner is player 0)."""
        return self._hand.copy()

    @property
    def view(self) -> PlayerView:
        """What the learner may see of the hand now."""
        return self._hand.view(LEARNER)

    @property
    def stars(self) -> int:
        """1 to 3 stars once solved (fewer for wrong tries and hints), 0 before."""
        if not self.solved:
            return 0
        cost = self.slips + self.hints_used
        three, two = self.lesson.stars_for
        return 3 if cost <= three else 2 if cost <= two else 1

    def over_words(self) -> str:
        """Why a finished stage takes no more tries: it is solved, or its hand ended without reaching the goal."""
        return text("lessons.feedback.finished" if self.solved else "lessons.feedback.ended")

    def targets(self, card: Card | str) -> list[Play]:
        """The plays the learner could make with this card (a Card or '7H') now: the board lights only these."""
        if isinstance(card, str):
            card = Card.parse(card)
        if self.finished or self._hand.to_move != LEARNER:
            return []
        return [m for m in self._hand.legal_moves() if isinstance(m, Play) and m.card is card]

    def can_discard(self, card: Card) -> bool:
        """Whether the learner may discard this card now (not after a play in a Running Leopard turn)."""
        if self.finished or self._hand.to_move != LEARNER:
            return False
        return self._hand.check(Discard(card)).legal

    def refusal(self, move: Move) -> str:
        """Why the learner may not make `move` now, in the engine's words ("" if they may): the board greys Go out
        and End turn with it, as Play does."""
        verdict = self._hand.check(move)
        return "" if verdict.legal else verdict.reason

    def goal_status(self) -> list[str]:
        """One sentence per goal: where the learner stands now."""
        return [goal.status(self._hand, self.answered, self._names(goal)) for goal in self.lesson.goals]

    def _names(self, goal: Goal) -> bool:
        """Whether the stage's goal, in words, names the card `goal` is about (if it has one)."""
        return goal.card is None or goal.card.name in self.lesson.goal

    @property
    def question(self) -> StageQuestion | None:
        """The lesson's question now asked, or None (no questions, or all answered)."""
        questions = self.lesson.questions
        return questions[self.answered] if self.answered < len(questions) and not self.finished else None

    def question_words(self) -> str:
        """The question now asked, numbered ("Question 2 of 3: ..."), or "" if none is."""
        question = self.question
        if question is None:
            return ""
        return text("lessons.questions.asked", number=self.answered + 1, count=len(self.lesson.questions),
                    prompt=question.prompt())

    # -- answering questions -----------------------------------------------------------------
    def answer(self, given: str) -> Feedback:
        """Answer the question now asked with one of its answers ("yes", "no", and "unknown" where it is
        offered). The engine works out the right answer from what the learner sees: a right one is explained,
        then the next question asked (after the last, the stage's success said); a wrong one changes nothing but
        counts as a slip. QuestionError, and nothing changed, for an answer the question does not offer."""
        question = self.question
        if question is None:
            return Feedback(False, self.over_words(), "finished")
        words = answer_words(given, question.answers)
        self.inputs.append(ANSWER + given)
        truth = question.truth(self.view)
        if given != truth.answer:
            self.slips += 1
            nudge = self._say(self.lesson.hints[min(self.answered, len(self.lesson.hints) - 1)])
            self._answer_hints = max(self._answer_hints, 1)  # the nudge is said here: Hint goes on to the answer
            kind = "seen_unknown" if question.ground == "seen" and given == "unknown" else question.ground
            wrong = text(f"lessons.questions.wrong.{kind}", answer=words)  # (each true of the answer given)
            return Feedback(False, _join(wrong, nudge), "off-track")
        self.answered += 1
        self._answer_hints = 0
        said = [text("lessons.questions.right", answer=words), truth.reason]
        if self._goals_met():
            self.solved = self.finished = True
            return Feedback(True, _join(*said, self._success()), "solved", stars=self.stars)
        return Feedback(True, _join(*said, self.question_words()), "progress")

    @property
    def hint_rungs(self) -> int:
        """How many rungs the hint ladder has now: the nudge and the answer for a question, else four."""
        return 2 if self.question is not None else len(RUNGS)

    def _answer_hint(self, question: StageQuestion) -> Rung:
        """The hint ladder of a question: the lesson's nudge, then the answer and why."""
        new = self._answer_hints < 2
        self._answer_hints = min(self._answer_hints + 1, 2)
        self.hints_used += new
        self.hint_repeated = not new
        if self._answer_hints == 1:
            return Rung(1, self._say(self.lesson.hints[min(self.answered, len(self.lesson.hints) - 1)]), None)
        truth = question.truth(self.view)
        return Rung(2, _join(text("lessons.questions.answer", answer=answer_words(truth.answer)), truth.reason), None)

    # -- trying moves ------------------------------------------------------------------------
    def try_move(self, move: Move | str) -> Feedback:
        """Check `move` (a Move or lesson notation such as 'play KS on your 7') and answer in words.

        An illegal or off-track move changes nothing but counts as a slip; a right one is kept,
        and the scripted opponent answers it."""
        if isinstance(move, str):
            move = parse_move(move)
        if self.lesson.questions and not self.finished:
            return Feedback(False, text("lessons.feedback.not_now"), "not-now", move)
        if self.finished or self._hand.to_move != LEARNER:
            return Feedback(False, self.over_words(), "finished", move)
        self.inputs.append(move_text(move))
        hand = self._hand
        verdict = hand.check(move)
        if not verdict.legal:
            self.slips += 1
            advice = [self._say(a.text) for a in self.lesson.advice if a.matches(hand, move, verdict.code)]
            return Feedback(False, _join(verdict.reason, *advice), "illegal", move, verdict)
        coach = coach_move(hand) if self.lesson.free else None
        coached = ""
        mover = hand.view(hand.to_move)
        if coach is not None and coach != move and move_gain(mover, coach) > move_gain(mover, move):
            coached = _coach_words(hand, coach)
        could_go_out = hand.check(GoOut()).legal
        held_before = len(hand.held[LEARNER])
        before = hand.view(LEARNER).squares
        expected = None if self.lesson.free else self.next_move()
        later = None if self.lesson.free or move == expected else self._same_turn(move)
        passed = any(isinstance(event, Passed) for event in apply_move(hand, move))
        told = move_narration(hand, move, before, passed=passed)
        if self._goals_met():
            return self._solve(move, verdict, (), told)
        # the rule that allows the move, where what it did does not say it ("you pass": "You passed"; a turn ended:
        # "You ended the turn", its reason said what was left to do before it), naming neither the card nor the
        # place, which what it did names
        reason = ("" if passed or isinstance(move, EndTurn) else text("lessons.feedback.allowed", rule=verdict.rule)
                  if verdict.rule else verdict.reason)
        if not self.lesson.free and move != expected:
            if later is None:
                # a card played: what was played, then why it is taken back, not first the rule that allowed it
                # (the place tried said it already, and the lesson's words begin "That move is allowed, but...")
                plain = isinstance(move, (Play, Discard))
                return self._off_track(move, verdict, told if plain else _join(reason, told), could_go_out)
            self._order.insert(self._step, self._order.pop(later))  # made sooner than the script, to the same end
        done = self._order[self._step] if not self.lesson.free else self._step
        self._step += 1
        held_after_move = held_before - 1 if isinstance(move, (Play, Discard)) else held_before
        said = [reason, told, coached]
        if not self.lesson.free and done < len(self.lesson.after):
            said.append(self._say(self.lesson.after[done]))
        replies = self._opponent_turns()
        drawn = hand.held[LEARNER][held_after_move:] if hand.to_move == LEARNER else []
        said += [move_words(reply, "report", LEARNER) for reply in replies]
        said += [text("lessons.feedback.drew", the_card=card.the_name) for card in drawn]
        if self._goals_met():
            return self._solve(move, verdict, tuple(replies), told)
        if hand.is_over:
            self.finished = True
            said += [ran_out_words(hand), *self.goal_status()]
            said.append(text("lessons.feedback.failed"))
            return Feedback(False, _join(*said), "failed", move, verdict, tuple(replies))
        return Feedback(True, _join(*said), "progress", move, verdict, tuple(replies))

    def hint(self) -> Rung:
        """The next rung of the hint ladder for the current step (each new rung costs like a slip)."""
        self.inputs.append(HINT)
        question = self.question
        self.hint_repeated = False
        if question is not None:
            return self._answer_hint(question)
        if self.next_move() is None:  # the lesson is over: nothing to point at, and no cost
            return Rung(1, self._say(self.lesson.hints[-1]), None)
        rung, new = self._ladder.climb((self._step, len(self._hand.moves)))
        self.hints_used += new
        self.hint_repeated = not new
        return rung

    def _clues(self) -> tuple[Move, list[str]]:
        """The move the ladder points to now and its four clues: the lesson's nudge, then the card,
        the space and the whole move."""
        move = self.next_move()
        assert move is not None
        kind = {Play: "play", Discard: "discard", GoOut: "go_out", EndTurn: "end_turn"}[type(move)]
        if kind == "end_turn" and self._hand.held[LEARNER]:  # the end of a turn of plays, cards kept
            kind = "end_turn_held"
        values: dict[str, object] = {}
        if isinstance(move, (Play, Discard)):
            values["card"], values["the_card"] = move.card.name, move.card.the_name
        if isinstance(move, Play):
            values["space"] = move.space
            values["where"] = text(f"lessons.goals.where.{'your' if move.square_owner == LEARNER else 'their'}")
        if self.lesson.free:
            nudge = self._free_nudge(move)
        else:
            nudge = self._say(self.lesson.hints[min(self._order[self._step], len(self.lesson.hints) - 1)])
        return move, [nudge, *(text(f"lessons.hints.{kind}.{rung}", **values) for rung in RUNGS[1:])]

    def _free_nudge(self, coach: Move) -> str:
        """The first clue of a whole hand's ladder, true of the position: going out wins the hand now (the coach
        goes out only then), a play can raise the learner's square or lower the other's by the coach's gain, or
        no play does either (the coach's gain is the most any move gains), and the coach places a card or discards."""
        view = self._hand.view(LEARNER)
        if isinstance(coach, GoOut):
            return text("lessons.hints.free.go_out")
        own, theirs = value_changes(view, coach)
        if own > 0:
            return text("lessons.hints.free.raise", gain=own)
        if theirs < 0:
            return text("lessons.hints.free.lower", gain=-theirs)
        return text("lessons.hints.free.discard" if isinstance(coach, Discard) else "lessons.hints.free.none")

    def next_move(self) -> Move | None:
        """The move the hint ladder points to now: the script's next step, or the coach's choice."""
        if self.finished or self._hand.to_move != LEARNER:
            return None
        if self.lesson.free:
            return coach_move(self._hand)
        return self.lesson.solution[self._order[self._step]] if self._step < len(self._order) else None

    def _same_turn(self, move: Move) -> int | None:
        """Where in `_order` the learner's legal `move` stands, if it is a later play of the script's turn of several
        plays now (Running Leopard) and the turn's plays, this one first and the others in the script's order, are
        all legal and leave both squares as the script's order does; else None (the move is off track)."""
        solution, hand = self.lesson.solution, self._hand
        if not hand.rules.multiple_plays:
            return None
        turn = []
        for position in range(self._step, len(self._order)):
            planned = solution[self._order[position]]
            if not isinstance(planned, Play):
                break
            turn.append(position)
        later = next((position for position in turn[1:] if solution[self._order[position]] == move), None)
        if later is None:
            return None
        scripted, tried = hand.copy(), hand.copy()
        for position in turn:
            apply_move(scripted, solution[self._order[position]])
        apply_move(tried, move)
        for position in turn:
            if position != later:
                if not tried.check(solution[self._order[position]]).legal:
                    return None
                apply_move(tried, solution[self._order[position]])
        return later if tried.squares == scripted.squares else None

    # -- inner workings ----------------------------------------------------------------------
    def _goals_met(self) -> bool:
        return all(goal.met(self._hand, self.answered) for goal in self.lesson.goals)

    def _say(self, template: str) -> str:
        """A lesson text filled with the engine's facts of the hand as it stands."""
        return fill(template, lesson_facts(self._hand, self.lesson))

    def _solve(self, move: Move, verdict: Verdict, replies: tuple[Move, ...], told: str) -> Feedback:
        """The stage solved by `move` (`told`: what it did), the opponent having answered it with `replies`."""
        self.solved = self.finished = True
        last = told if replies or self._hand.is_over else ""
        return Feedback(True, self._success(replies, last), "solved", move, verdict, replies, self.stars)

    def _success(self, replies: tuple[Move, ...] = (), told: str = "") -> str:
        """What a solved stage says: what the learner's last move did (`told`, where the opponent answered it or the
        hand ended with it: else the board shows it, and the learner made it), the opponent's `replies` to it, why
        the hand ended where nobody went out, what it taught (the lesson's success) and the stars."""
        return _join(told, *[move_words(reply, "report", LEARNER) for reply in replies], ran_out_words(self._hand),
                     self._say(self.lesson.success), text("lessons.feedback.stars", stars=self.stars),
                     self._stars_cost())

    def _stars_cost(self) -> str:
        """Below three stars, what cost the others: the slips and hints counted (the goal panel's words), and how many
        three stars allow."""
        if self.stars == 3:
            return ""
        return text("lessons.feedback.stars_cost", cost=self.slips + self.hints_used, three=self.lesson.stars_for[0])

    def _off_track(self, move: Move, verdict: Verdict, told: str, could_go_out: bool) -> Feedback:
        """Take back the legal `move` that is not the lesson's, `told` what it did (after its rule's reason, for the
        end of a turn or going out); show the first of the lesson's `mistakes` for it
        whose conditions the engine finds true (`could_go_out`: going out was allowed instead of `move`), its
        reply told as made, and then taken back with the move, which a sentence says; what the goals still need is
        said after it, of the position on the board once both are taken back (never of the one undone)."""
        hand = self._hand
        self.slips += 1
        texts, step = self.lesson.off_track, self._order[self._step] if self._step < len(self._order) else -1
        # a lesson's words for a step tell the rest of its plan as scripted: said only where the moves made so far
        # are the script's first ones (a play made sooner than the script leaves that plan told wrong)
        scripted = sorted(self._order[:self._step]) == list(range(self._step))
        said = [told, self._say(texts[min(step, len(texts) - 1)]) if texts and scripted
                else text("lessons.feedback.off_track")]
        shown: list[str] = []
        for mistake in self.lesson.mistakes:
            if mistake.move != move or hand.to_move != OPPONENT or not hand.check(mistake.reply):
                continue
            value = hand.value(LEARNER)
            apply_move(hand, mistake.reply)
            holds = mistake.holds(could_go_out, value, hand.value(LEARNER))
            shown = [move_words(mistake.reply, "report", LEARNER), self._say(mistake.text)] if holds else []
            hand.undo()
            said += shown
            if shown:
                break
        hand.undo()
        said.append(text("lessons.feedback.both_taken_back" if shown else "lessons.feedback.taken_back"))
        said += [goal.status(hand, named=self._names(goal)) for goal in self.lesson.goals if not goal.met(hand)]
        return Feedback(False, _join(*said), "off-track", move, verdict)

    def _opponent_turns(self) -> list[Move]:
        return play_turn(self._hand, OPPONENT, self._opponent_move)

    def _opponent_move(self) -> Move:
        """The opponent's next move: the coach's in a free lesson, else the script's, else a plain discard."""
        hand = self._hand
        if self.lesson.free:
            return coach_move(hand)
        if self._replies_used < len(self.lesson.replies):
            self._replies_used += 1
            return self.lesson.replies[self._replies_used - 1]
        held = hand.held[OPPONENT]
        return Discard(held[0]) if held else EndTurn()


def replayed(lesson: Lesson, inputs: object) -> tuple[Attempt, str]:
    """A new attempt at `lesson` with `inputs` (an attempt's `inputs`, as a browser or another language gives them
    back) made again, and what it said last ("" if nothing): the same position, slips, hints and stars to come.
    LeopardError, and no attempt, if they are not inputs of an attempt (not a list of texts, more than `MOST_INPUTS`,
    a text that is no move, hint or answer)."""
    if not isinstance(inputs, (list, tuple)) or len(inputs) > MOST_INPUTS or \
            not all(isinstance(each, str) and len(each) <= 40 for each in inputs):
        raise LeopardError(f"a lesson's moves must be a list of at most {MOST_INPUTS} short texts")
    attempt = lesson.new_attempt()
    said = ""
    for each in inputs:
        if each == HINT:
            said = attempt.hint().text
        elif each.startswith(ANSWER) and each[len(ANSWER):] in ANSWERS:
            said = attempt.answer(each[len(ANSWER):]).text
        else:
            said = attempt.try_move(parse_move(each)).text
    return attempt, said


def _coach_words(hand: Hand, coach: Move) -> str:
    """What the coach would have chosen instead, and what that move does to which square (the learner's own
    square rises, or their opponent's falls, or neither changes), worked out by the engine before the move."""
    own, theirs = value_changes(hand.view(hand.to_move), coach)
    move = move_words(coach, "advice", LEARNER)
    if own > 0 and not theirs:
        return text("lessons.feedback.coach.yours", move=move, gain=own)
    if theirs < 0 and not own:
        return text("lessons.feedback.coach.theirs", move=move, gain=-theirs)
    if not own and not theirs:
        return text("lessons.feedback.coach.neither", move=move)
    return ""  # the coach never prefers a move that lowers its own square or raises the opponent's


def _join(*parts: str) -> str:
    return " ".join(part.strip() for part in parts if part and part.strip())
