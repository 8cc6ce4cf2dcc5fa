"""The selection of CI's pass with ../shared hidden (tests/shared_users.py): every test that
names the shared data, directly or through a module-level name, a decorator or a fixture, and
no other."""

from __future__ import annotations

from shared_users import module_info, names_shared

MODULE = '''
import pytest
from conftest import EDITIONS, SHARED, ROOT, needs_shared

PO = SHARED / "corpus" / "x.po"
needs_po = pytest.mark.skipif(not PO.is_file(), reason="no PO")
LOCAL = ROOT / "corpus"


def helper():
    return EDITIONS / "2025-11-14.txt"


@pytest.fixture
def built():
    return helper()


def test_alias_in_body():
    assert PO.read_text()


@needs_po
def test_decorated_only():
    pass


def test_through_a_fixture(built, tmp_path):
    pass


def test_the_mirror_variable(monkeypatch):
    monkeypatch.setenv("CRPIPE_MIRROR", "")


def test_embedded_only(tmp_path):
    assert LOCAL.is_dir()


class TestGroup:
    def test_method_reads_seeds(self):
        from conftest import SEEDS
        assert SEEDS

    def test_method_plain(self):
        assert 1 + 1 == 2
'''


def test_selects_exactly_the_tests_that_name_the_shared_data(tmp_path):
    p = tmp_path / "test_sample.py"
    p.write_text(MODULE, encoding="utf-8")
    _, names = module_info(str(p))
    assert {"PO", "needs_po", "helper", "built"} <= names and "LOCAL" not in names
    picked = {n for n, cls, fx in [
        ("test_alias_in_body", None, []), ("test_decorated_only", None, []),
        ("test_through_a_fixture", None, ["built", "tmp_path"]), ("test_the_mirror_variable", None, ["monkeypatch"]),
        ("test_embedded_only", None, ["tmp_path"]), ("test_method_reads_seeds", "TestGroup", []),
        ("test_method_plain", "TestGroup", []),
    ] if names_shared(str(p), cls, n, fx)}
    assert picked == {"test_alias_in_body", "test_decorated_only", "test_through_a_fixture",
                      "test_the_mirror_variable", "test_method_reads_seeds"}


def test_a_module_marked_as_needing_the_shared_data_is_selected_whole(tmp_path):
    p = tmp_path / "test_marked.py"
    p.write_text("from conftest import needs_shared\npytestmark = needs_shared\n\ndef test_x():\n    pass\n")
    assert names_shared(str(p), None, "test_x", [])
