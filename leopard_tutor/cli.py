"""The `leopard-tutor` command: with no subcommand it serves the app; `demo` prints a seeded hand; `teacher-link`
prints the address of the teacher's class page."""

from __future__ import annotations

import argparse
import os
import random
import sys
from pathlib import Path

from .engine import REVISED_2008, RULE_SETS, Hand, Play
from .engine.catalogue import LANGUAGE_ENV, language_code, languages, text
from .engine.turns import apply_move
from .server.kernel_pool import CLASS_POOL, CLASS_POOL_GROWS_TO
from .server.sessions import PAGE_GONE_SECONDS, SESSIONS_PER_VISITOR


def demo(rules_key: str, seed: int) -> None:
    """Print a seeded hand of random legal moves, each with the engine's reason."""
    hand = Hand.deal(RULE_SETS[rules_key], seed=seed)
    rng = random.Random(seed)
    while not hand.is_over:
        move = rng.choice(hand.legal_moves())
        player = hand.to_move
        reason = hand.check(move).reason
        apply_move(hand, move)
        if isinstance(move, Play):
            print(f"Player {player}: {move}. {reason}")
        else:
            print(f"Player {player}: {move}.")
    print(f"Squares: {hand.squares[0]}  |  {hand.squares[1]}")
    print(f"Scores: {hand.scores()}")


def link(data_dir: Path | None, ip: str, port: int) -> str:
    """The teacher's class page of a server on `ip`:`port` keeping its data in `data_dir` (default: the user's
    data folder); its token is made there if the server has not started yet."""
    from .server.class_store import default_data_dir
    from .server.launch import classroom_url
    from .server.teacher import kept_token, teacher_link

    folder = default_data_dir() if data_dir is None else data_dir
    return text("teacher.link", url=teacher_link(classroom_url(ip, port), kept_token(folder)))


def main(argv: list[str] | None = None) -> None:
    """Entry point of the `leopard-tutor` console script: `run`, and a Ctrl-C before the server takes the signal over
    (while it imports Voilà, or starts) says it stopped, with no traceback."""
    try:
        run(argv)
    except KeyboardInterrupt:
        print("Stopped.", file=sys.stderr)
        raise SystemExit(130) from None


def run(argv: list[str] | None = None) -> None:
    """The command `argv` asks for: the demo, the teacher's link, or the server."""
    parser = argparse.ArgumentParser(prog="leopard-tutor", description="Leopard Tutor: serve the app (default)")
    parser.add_argument("--port", type=int, default=8866, help="port to serve the app on (default 8866)")
    parser.add_argument("--ip", default="127.0.0.1",
                        help="address to listen on: 0.0.0.0 (or this machine's name or address) for a classroom "
                             "network; prints the address students type and a QR code of it (default 127.0.0.1)")
    parser.add_argument("--no-browser", action="store_true", help="do not open a browser")
    parser.add_argument("--max-sessions", type=int, default=None, metavar="N",
                        help="pages of the app served at once (a visitor with two tabs has two); past it a visit "
                             "is told the class is full (default: "
                             "what every limit of this machine allows: 60%% of its memory at 60 MiB a session, "
                             "its open files and ZMQ sockets; printed at start)")
    parser.add_argument("--sessions-per-visitor", type=int, default=SESSIONS_PER_VISITOR, metavar="N",
                        help="sessions (pages of the app) one browser may have at once; past it a page says so "
                             "(default %(default)d)")
    parser.add_argument("--page-gone-after", type=float, default=PAGE_GONE_SECONDS, metavar="SECONDS",
                        help="end a session once its page has been gone (no connection) this long, whatever the "
                             "tab did (default %(default)g)")
    parser.add_argument("--theme", choices=("auto", "light", "dark"), default="auto",
                        help="the page's colours: auto follows each visitor's browser (default); a link's "
                             "?voila-theme=dark or ?theme=light overrides it")
    parser.add_argument("--class-size", type=int, default=None, metavar="N",
                        help="keep up to N kernels preheated for a class that arrives at once, started one at a time; "
                             f"0 keeps one (default: with an --ip other than this machine's own, {CLASS_POOL}, and "
                             f"one more for each student who waits, up to {CLASS_POOL_GROWS_TO}, within the "
                             "sessions' limit; else one)")
    parser.add_argument("--data-dir", type=Path, default=None, metavar="DIR",
                        help="the folder of the class tables' database (and the cookie secret that lets browsers "
                             "keep their seats across a restart); created at start (default: the user's data "
                             "folder, ~/.local/share/leopard-tutor)")
    parser.add_argument("--teacher-token", default=None, metavar="TOKEN",
                        help="the token of the teacher's class page (16 to 128 letters, digits, '-' or '_'); kept "
                             "in the data folder (default: the one kept there, made at the first start)")
    parser.add_argument("--language", default=None, metavar="CODE",
                        help="the language of the server's pages and of the app where neither a link, nor the "
                             f"learner, nor the browser chose one the tutor has ({', '.join(languages())}; default: "
                             f"the environment's {LANGUAGE_ENV}, else en)")
    parser.add_argument("--no-preheat", action="store_true", help="start a kernel per visit instead of a ready one")
    parser.add_argument("--no-tcp-nodelay", action="store_true",
                        help="leave Nagle's algorithm on the kernel websocket (for measuring the fix)")
    sub = parser.add_subparsers(dest="command")
    demo_parser = sub.add_parser("demo", help="print a seeded hand played by random legal moves")
    demo_parser.add_argument("--rules", choices=sorted(RULE_SETS), default=REVISED_2008.key,
                             help="the rule set the hand is played under (default %(default)s)")
    demo_parser.add_argument("--seed", type=int, default=1, help="the deal's and the moves' seed (default 1)")
    link_parser = sub.add_parser("teacher-link", help="print the address of the teacher's class page again")
    link_parser.add_argument("--data-dir", type=Path, default=argparse.SUPPRESS, metavar="DIR",
                             help="the data folder the server was (or will be) started with; its teacher's token "
                                  "is made there if it has none yet (default: the server's default)")
    link_parser.add_argument("--port", type=int, default=argparse.SUPPRESS,
                             help="the server's port (default: the server's default)")
    link_parser.add_argument("--ip", default=argparse.SUPPRESS,
                             help="the address the server listens on (default: the server's default)")
    args = parser.parse_args(argv)
    if args.command == "demo":
        try:
            demo(args.rules, args.seed)
            sys.stdout.flush()
        except BrokenPipeError:  # read only in part (`leopard-tutor demo | head`): nothing is wrong
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # (Python's own flush at exit)
        return
    if args.command == "teacher-link":
        print(link(args.data_dir, args.ip, args.port))
        return
    from .server.teacher import TOKEN

    if args.teacher_token is not None and not TOKEN.fullmatch(args.teacher_token):
        parser.error("--teacher-token is 16 to 128 letters, digits, '-' or '_'")
    if not 0 < args.port < 65536:
        parser.error(f"--port must be between 1 and 65535, not {args.port}")
    start(parser, args)


def start(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Check the server's options (`parser` says what is wrong) and serve the app."""
    from .server.launch import classroom_banner, classroom_url, is_loopback, port_taken, serve

    if port_taken(args.ip, args.port):
        parser.error(f"port {args.port} is in use by another program: stop it, or choose another port with --port")
    if not is_loopback(args.ip):
        print(classroom_banner(classroom_url(args.ip, args.port)), flush=True)
    if args.max_sessions is not None and args.max_sessions < 1:
        parser.error(f"--max-sessions must be at least 1, not {args.max_sessions}")
    if args.sessions_per_visitor < 1:
        parser.error(f"--sessions-per-visitor must be at least 1, not {args.sessions_per_visitor}")
    if args.class_size is not None and not 0 <= args.class_size <= 1_000:
        parser.error(f"--class-size must be from 0 to 1000, not {args.class_size}")
    if not 1 <= args.page_gone_after <= 86_400:
        parser.error(f"--page-gone-after must be from 1 to 86400 seconds, not {args.page_gone_after:g}")
    if args.language is not None:
        code = language_code(args.language)
        if code is None:
            parser.error(f"--language is one of {', '.join(languages())}, not {args.language[:40]!r}")
        os.environ[LANGUAGE_ENV] = code  # the server's pages, and every kernel it starts
    serve(args.port, not args.no_browser, preheat=not args.no_preheat, nodelay=not args.no_tcp_nodelay, ip=args.ip,
          max_sessions=args.max_sessions, page_gone_after=args.page_gone_after, theme=args.theme,
          sessions_per_visitor=args.sessions_per_visitor, class_size=args.class_size, data_dir=args.data_dir,
          teacher_token=args.teacher_token)


if __name__ == "__main__":
    main()
