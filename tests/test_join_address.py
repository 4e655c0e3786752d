"""The address students join by (`server/join.py`): which addresses the class page may draw as a QR code, and the
code itself, black on white with its quiet zone, scaled by the page."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import pytest
import segno

from leopard_tutor.server.join import MAX_ADDRESS, JoinError, join_address, qr_svg

SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("address", ["http://school.example:8866/", "https://leopard.school.example/class/",
                                     "http://[fe80::1]:8866/", "http://192.168.1.20:8866/"])
def test_an_address_students_can_type_is_taken_as_it_is(address: str) -> None:
    assert join_address(address) == address


@pytest.mark.parametrize("address", ["", "school.example:8866", "ftp://school.example/", "javascript:alert(1)",
                                     "http://", "http:///path", "http://a b/", "http://a/\n", "http://[::1/",
                                     "http://a/" + "x" * MAX_ADDRESS, None, 8866])
def test_anything_else_is_refused_in_words(address: object) -> None:
    with pytest.raises(JoinError):
        join_address(address)  # type: ignore[arg-type]


def test_the_code_is_the_addresses_qr_code_black_on_white_scaled_by_the_page() -> None:
    address = "http://school.example:8866/"
    drawn = ElementTree.fromstring(qr_svg(address))
    size = segno.make(address, micro=False, error="m").symbol_size()[0]  # with its quiet zone
    assert drawn.tag == f"{SVG}svg" and drawn.get("viewBox") == f"0 0 {size} {size}"
    assert drawn.get("width") is None and drawn.get("height") is None
    paper, ink = drawn.findall(f"{SVG}path")
    assert paper.get("fill") == "#fff" and paper.get("d") == f"M0 0h{size}v{size}h-{size}z"
    assert ink.get("stroke") == "#000"


def test_the_code_of_a_refused_address_is_not_drawn() -> None:
    with pytest.raises(JoinError):
        qr_svg("file:///etc/passwd")
