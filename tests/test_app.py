"""The app shell, the command line and the Voilà launcher, without a server."""

from __future__ import annotations

import json
import os
import socket
import warnings
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import ipywidgets as W
import nbformat
import pytest
from keyed import mark
from servers import free_port
from voila.app import Voila
from voila.execute import VoilaExecutor

from leopard_tutor import app, cli
from leopard_tutor.cli import main
from leopard_tutor.engine.catalogue import text
from leopard_tutor.lessons import kernel_progress
from leopard_tutor.lessons import progress as progress_module
from leopard_tutor.server import launch as server
from leopard_tutor.widgets import PlaySection


def test_app_opens_on_play_against_the_beginner() -> None:
    tutor = app.build_app()
    assert tutor.sections[0][0] == "play"
    play = tutor.built[0]
    assert isinstance(play, PlaySection)
    assert type(play.controller.opponent).__name__ == "BeginnerPlayer"
    assert play.level_pick.value == "beginner"
    assert play.board.state["squares"] and play.board.state["error"] == ""


def test_sections_are_one_line_each_and_built_when_opened(keyed: None) -> None:
    built: list[str] = []

    def second() -> W.Widget:
        built.append("second")
        return W.HTML("second section")

    tutor = app.build_app([("One", lambda: W.HTML("one")), ("Two", second),
                           ("Three", "ipywidgets:Label"), ("Broken", "leopard_tutor.nowhere:build")])
    assert tutor.tabs.titles == ("One", "Two", "Three", "Broken") and built == []
    tutor.tabs.selected_index = 1
    heading, section = tutor.tabs.children[1].children
    assert built == ["second"] and section.value == "second section" and heading.value == "<h2>Two</h2>"
    tutor.tabs.selected_index = 2
    assert isinstance(tutor.tabs.children[2].children[-1], W.Label)
    tutor.tabs.selected_index = 3
    failed = tutor.tabs.children[3].children[-1]
    assert failed.value == mark("app.section_failed", error="ModuleNotFoundError")  # its type's name, no traceback


def test_the_tab_in_view_stands_in_the_address_so_a_reload_comes_back_to_it() -> None:
    """A learner in the middle of a lesson who reloads comes back to Learn (it came back on Play): the tab in view is
    put in the page's address as a teacher's link writes it, the first tab leaving it out; away from Learn, a link's
    stage (used by then) leaves it too, so that the reload is not told the link asked for a stage of another tab."""
    tutor = app.build_app([("play", lambda: W.HTML("play")), ("learn", lambda: W.HTML("learn")),
                           ("practice", lambda: W.HTML("practice"))])
    assert tutor.page_address.kept == {}
    tutor.tabs.selected_index = 1
    assert tutor.page_address.kept == {"tab": "learn"}
    tutor.tabs.selected_index = 2
    assert tutor.page_address.kept == {"tab": "practice", "lesson": ""}
    tutor.tabs.selected_index = 0
    assert tutor.page_address.kept == {"tab": "", "lesson": ""}


def test_back_and_forward_show_the_tab_their_entry_of_the_history_names(caplog: pytest.LogCaptureFixture) -> None:
    """Each tab shown is an entry of the page's history (`entries`), so Back shows the tab before: the page tells the
    kernel the tab its address names, which is then shown and kept; no tab named is the first tab. A name the app has
    no tab for, and anything but a short text for each setting of the entries, changes nothing."""
    tutor = app.build_app([("play", lambda: W.HTML("play")), ("learn", lambda: W.HTML("learn")),
                           ("practice", lambda: W.HTML("practice"))])
    address = tutor.page_address
    address.entries = ["tab"]
    tutor.tabs.selected_index = 2
    assert address.entry == 1
    address.returned({"tab": "learn"})  # Back
    assert tutor.tabs.selected_index == 1 and address.kept["tab"] == "learn"
    address.returned({"tab": ""})  # Back again, to the address the page opened at
    assert tutor.tabs.selected_index == 0 and address.kept["tab"] == ""
    address.returned({"tab": "practice"})  # Forward, twice
    assert tutor.tabs.selected_index == 2
    assert address.entry == 1  # only the tab the learner chose made an entry: those brought back made none
    for hostile in ({"tab": 1}, {"tab": "learn" * 30}, {"tab": "learn", "lesson": "3"}, {}, ["tab"], "tab=learn",
                    None):
        address.returned(hostile)
        assert tutor.tabs.selected_index == 2 and address.kept["tab"] == "practice", hostile
    assert "refused" in caplog.text
    address._on_page_msg(address, {"type": "returned", "settings": {"tab": "Learn"}}, [])  # as the page sends it
    assert tutor.tabs.selected_index == 1
    address.returned({"tab": "nowhere"})  # a link's tab the app has none of: the first tab, as the link opened
    assert tutor.tabs.selected_index == 0 and address.entry == 1
    tutor.tabs.selected_index = 2
    assert address.entry == 2 and address.kept["tab"] == "practice"
    address.entries = []  # a page that is not the app's own makes no entry
    tutor.tabs.selected_index = 1
    assert address.entry == 2 and address.kept["tab"] == "learn"


def test_demo_subcommand_still_prints_a_hand(capsys: pytest.CaptureFixture[str]) -> None:
    main(["demo", "--seed", "2"])
    out = capsys.readouterr().out
    assert "Player 1:" in out and out.strip().splitlines()[-1].startswith("Scores: (")


def test_serving_options(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[tuple[object, ...]] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: calls.append((*a, k)))
    monkeypatch.setattr(server, "port_taken", lambda ip, port: False)  # whatever else this machine runs
    main(["--port", "9123", "--no-browser"])
    main([])
    assert capsys.readouterr().out == ""
    main(["--ip", "0.0.0.0", "--port", "9000"])
    main(["--theme", "dark"])
    main(["--data-dir", "/tmp/class"])
    defaults = {"preheat": True, "nodelay": True, "ip": "127.0.0.1", "max_sessions": None, "theme": "auto",
                "page_gone_after": 60.0, "sessions_per_visitor": 4, "class_size": None, "data_dir": None,
                "teacher_token": None}
    assert calls == [(9123, False, defaults), (8866, True, defaults), (9000, True, dict(defaults, ip="0.0.0.0")),
                     (8866, True, dict(defaults, theme="dark")),
                     (8866, True, dict(defaults, data_dir=Path("/tmp/class")))]
    assert ":9000/" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--port", "0"])
    with pytest.raises(SystemExit):
        main(["--theme", "purple"])
    main(["--page-gone-after", "5"])
    assert calls[-1][2]["page_gone_after"] == 5.0  # type: ignore[index]
    with pytest.raises(SystemExit):
        main(["--page-gone-after", "0"])
    main(["--sessions-per-visitor", "2"])
    assert calls[-1][2]["sessions_per_visitor"] == 2  # type: ignore[index]
    with pytest.raises(SystemExit):
        main(["--sessions-per-visitor", "0"])
    main(["--class-size", "30"])
    assert calls[-1][2]["class_size"] == 30  # type: ignore[index]
    main(["--teacher-token", "a-token-of-our-own-0123"])
    assert calls[-1][2]["teacher_token"] == "a-token-of-our-own-0123"  # type: ignore[index]
    with pytest.raises(SystemExit):
        main(["--class-size", "-1"])


def test_a_port_another_program_listens_on_is_refused_before_anything_starts(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Voilà moved to the next port by itself, while the banner, the teacher's link and every kernel's requests to the
    class server still named the one asked for (a QA helper's class saw "Your teacher sees you as ..." that nothing
    had reached). Now the command says so and starts nothing; Voilà is told never to move."""
    import socket
    calls: list[object] = []
    monkeypatch.setattr(server, "serve", lambda *a, **k: calls.append(a))
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        assert server.port_taken("127.0.0.1", port)
        with pytest.raises(SystemExit) as stopped:
            main(["--port", str(port), "--ip", "0.0.0.0"])
    assert stopped.value.code == 2 and calls == []
    out, err = capsys.readouterr()
    assert f"port {port} is in use by another program" in err and out == "", "no banner for a server never started"
    assert not server.port_taken("127.0.0.1", port)  # once the other program has let it go
    assert "--Voila.port_retries=0" in server.voila_argv(Path("nb.ipynb"), port, False)


def voila_config(argv: list[str]) -> Any:
    """The config Voilà makes of `argv` (a DeprecationWarning, as from a dict written as JSON, fails the test)."""
    app = Voila()
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        app.parse_command_line(argv)
    return app.config


def test_the_theme_option_fixes_a_theme_or_lets_the_page_follow_the_browser() -> None:
    auto = voila_config(server.voila_argv(Path("nb.ipynb"), 1, False)).VoilaConfiguration
    assert auto.resources == {**server.AUTO_THEME, "leopard_language": "en"} and "theme" not in auto
    dark = voila_config(server.voila_argv(Path("nb.ipynb"), 1, False, theme="dark")).VoilaConfiguration
    assert dark.theme == "dark" and dark.resources == {"leopard_language": "en"}
    with pytest.raises(ValueError):
        server.theme_options("purple")


@pytest.mark.parametrize(("query", "theme"), [
    ({"voila-theme": [b"dark"]}, [b"dark"]),
    ({"theme": [b"light"]}, [b"light"]),
    ({"voila-theme": [b"purple"]}, None),
    ({"theme": [b"<b>"]}, None),
    ({"voila-theme": [b"dark"], "theme": [b"light"]}, None),
    ({"rules": [b"1963"]}, None),
])
def test_a_link_asks_for_light_or_dark_by_either_name(query: dict[str, list[bytes]], theme: object) -> None:
    from leopard_tutor.server.handlers import theme_asked

    arguments = dict(query)
    theme_asked(arguments)
    assert arguments.get("theme") == theme
    assert "voila-theme" not in arguments


def test_voila_command_line_has_preheat_culling_and_no_tracebacks() -> None:
    argv = server.voila_argv(Path("nb.ipynb"), 8899, open_browser=False)
    for part in ("--port=8899", "--no-browser", "--preheat_kernel=True", "--pool_size=1", "--show_tracebacks=False",
                 "--Voila.ip=127.0.0.1", f"--MappingKernelManager.cull_idle_timeout={server.CULL_IDLE_SECONDS}"):
        assert part in argv
    assert "--preheat_kernel=True" not in server.voila_argv(Path("nb.ipynb"), 1, True, preheat=False)


def test_voilas_executor_waits_for_a_cells_output_on_a_busy_machine() -> None:
    """The command line reaches the executor that runs the app's notebook (its config is the app's): past nbclient's
    4 s default, a page made on a busy machine lost the cell's output, and with it the app."""
    config = voila_config(server.voila_argv(Path("nb.ipynb"), 8899, open_browser=False))
    executor = VoilaExecutor(nbformat.v4.new_notebook(), config=config)
    assert executor.iopub_timeout == server.IOPUB_SECONDS >= 60


@pytest.mark.parametrize(("headers", "allowed"), [
    ({"Origin": "http://127.0.0.1:8866"}, True),
    ({"Referer": "http://127.0.0.1:8866/voila/render/x.ipynb"}, True),
    ({"Origin": "https://evil.example"}, False),
    ({"Origin": "http://127.0.0.1:9999"}, False),
    ({"Origin": "null"}, False),
    ({"Origin": "https://evil.example", "Referer": "http://127.0.0.1:8866/"}, False),
    ({}, False),
])
def test_only_the_apps_own_page_may_end_a_session_without_a_token(headers: dict[str, str], allowed: bool) -> None:
    from leopard_tutor.server.handlers import same_origin

    assert same_origin(headers, "127.0.0.1:8866") is allowed


def test_installed_without_the_repository_the_same_notebook_is_written(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path) -> None:
    monkeypatch.setattr(server, "REPO_NOTEBOOK", Path("/nonexistent/leopard_tutor.ipynb"))
    path = server.notebook_path(tmp_path)
    assert path.parent == tmp_path
    assert json.loads(path.read_text(encoding="utf-8")) == server.app_notebook()


def test_a_server_on_every_interface_gives_students_its_network_address_else_its_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The address of the interface a packet to another network leaves from (a phone may not know the computer's
    name), as the system's own routing says; the machine's name where there is no route."""
    host = urlsplit(server.classroom_url("0.0.0.0", 8866)).hostname
    assert host is not None
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(server.ROUTE_PROBE)
            routed = probe.getsockname()[0]
        except OSError:
            routed = None
    assert host == (routed if routed and not routed.startswith("127.") else socket.gethostname())
    assert server.classroom_url("::", 8866) == server.classroom_url("0.0.0.0", 8866)

    class NoRoute(socket.socket):
        def connect(self, address: object) -> None:
            raise OSError("Network is unreachable")
    monkeypatch.setattr(server.socket, "socket", NoRoute)
    assert server.classroom_url("0.0.0.0", 8866) == f"http://{socket.gethostname()}:8866/"


def test_a_classroom_server_listens_where_asked_and_prints_the_address_with_a_qr_code() -> None:
    assert "--Voila.ip=0.0.0.0" in server.voila_argv(Path("nb.ipynb"), 8866, False, ip="0.0.0.0")
    assert server.classroom_url("10.0.0.5", 9000) == "http://10.0.0.5:9000/"
    assert server.classroom_url("0.0.0.0", 8866).startswith("http://") and "0.0.0.0" not in server.classroom_url(
        "0.0.0.0", 8866)
    banner = server.classroom_banner("http://10.0.0.5:9000/")
    assert "http://10.0.0.5:9000/" in banner and banner.count("█") > 100
    assert banner.startswith(text("teacher.banner", url="http://10.0.0.5:9000/", code=""))  # words from the catalogue


def test_a_preheated_kernel_counts_as_active_from_the_moment_it_is_handed_out() -> None:
    """Otherwise a cull check right after a quiet spell could shut it before the page connects."""
    from datetime import datetime, timedelta, timezone

    from leopard_tutor.server.guards import PageRequest
    from leopard_tutor.server.state import ServerState
    from leopard_tutor.server.visits import PageKernels

    class Kernel:
        last_activity = datetime.now(timezone.utc) - timedelta(hours=2)

    class Manager:
        kernel = Kernel()

        async def get_rendered_notebook(self, notebook: str) -> tuple[object, list[str], str]:
            return None, [], "k1"

        def get_kernel(self, kernel_id: str) -> Kernel:
            assert kernel_id == "k1"
            return self.kernel

    manager = Manager()
    handing_out = PageKernels(manager, ServerState(), PageRequest("ana")).get_rendered_notebook("nb.ipynb")
    with pytest.raises(StopIteration) as done:  # nothing inside waits: one step runs it to the end
        handing_out.send(None)
    assert done.value.value[2] == "k1"
    assert datetime.now(timezone.utc) - manager.kernel.last_activity < timedelta(seconds=5)


def test_the_demo_read_in_part_ends_without_a_traceback() -> None:
    """`leopard-tutor demo | head -1`: the reader stops early, and the command ends quietly."""
    import subprocess
    import sys
    command = f"'{sys.executable}' -c 'from leopard_tutor.cli import main; main([\"demo\"])' | head -c 10"
    shown = subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=60)
    assert len(shown.stdout) == 10 and "Traceback" not in shown.stderr and "BrokenPipe" not in shown.stderr


def test_a_stop_before_the_server_has_started_ends_without_a_traceback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C in the first seconds of `leopard-tutor`, while it imports Voilà or starts (before the server takes the
    signal over): it says it stopped, with no traceback, and ends at once (it printed a KeyboardInterrupt's
    traceback). Here, at a set moment, then as a real signal a moment after the command began."""
    import subprocess
    import sys

    def interrupted(*_args: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "start", interrupted)
    with pytest.raises(SystemExit) as stopped:
        main(["--no-browser", "--port", str(free_port()), "--data-dir", str(tmp_path / "data")])
    assert stopped.value.code == 130 and capsys.readouterr().err.strip() == "Stopped."
    command = ("import os, signal, threading; from leopard_tutor.cli import main; "  # (the signal once main has begun)
               "threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start(); "
               f"main(['--no-browser', '--port', '{free_port()}', '--data-dir', {str(tmp_path / 'real')!r}])")
    started = subprocess.Popen([sys.executable, "-c", command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "TMPDIR": str(tmp_path)})
    out, err = started.communicate(timeout=120)
    assert started.returncode in (0, 130) and "Traceback" not in out + err, (started.returncode, out, err)


def test_only_a_port_in_use_is_said_to_be_in_use() -> None:
    """An address this machine does not have is not "a port in use by another program" (Voilà says what it is)."""
    assert not server.port_taken("192.0.2.1", 8866)  # TEST-NET-1: never this machine's


def test_a_newcomer_is_pointed_from_play_to_learn_until_a_stage_is_solved(keyed: None,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The static site's family landed on Play's match with no word of the lessons. A browser that gives back no
    progress gets a line over Play pointing to Learn, with a button that opens it; the first star takes it away, and a
    browser that kept some progress never shows it."""
    tutor = app.build_app()
    play = tutor.built[0]
    assert isinstance(play, PlaySection) and not play.newcomer.shown, "nothing said before the browser answers"
    tutor.storage.restore("")
    assert play.newcomer.shown and mark("play.newcomer.words") in play.newcomer.words.value
    play.level_pick.value = "people"  # two people at this device chose to play each other: not for them
    assert not play.newcomer.shown
    play.level_pick.value = "beginner"
    assert play.newcomer.shown
    play.newcomer.button.click()
    assert tutor.sections[tutor.tabs.selected_index][0] == "learn"
    progress = kernel_progress()
    progress.record_lesson(progress.keys[0], 2)
    assert not play.newcomer.shown
    kept = progress.to_code()
    monkeypatch.setattr(progress_module, "_KERNEL_PROGRESS", [])  # another kernel: a reload of that browser
    returning = app.build_app()
    returning.storage.restore(kept)
    assert isinstance(returning.built[0], PlaySection) and not returning.built[0].newcomer.shown
