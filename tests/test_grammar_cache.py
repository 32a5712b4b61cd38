"""The parsers' analysis is cached on disk between runs, in the user's cache folder only."""

import os

from dipsolve.grammar.loading import cache_folder, lalr_parser


def test_the_cache_file_is_written_once_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("DIPSOLVE_NO_CACHE", raising=False)
    first = lalr_parser("position.lark")
    files = list((tmp_path / "dipsolve").glob("position-*.cache"))
    assert len(files) == 1
    stamp = files[0].stat().st_mtime_ns
    second = lalr_parser("position.lark")
    assert files[0].stat().st_mtime_ns == stamp          # read, not written again
    text = "phase: S1901M\n[France]\nunits: A PAR\n"
    assert first.parse(text) == second.parse(text)


def test_an_unwritable_cache_folder_means_no_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("DIPSOLVE_NO_CACHE", raising=False)
    monkeypatch.setattr(os, "access", lambda path, mode: False)   # as for a read-only folder
    assert cache_folder() is None
    assert lalr_parser("position.lark").parse("phase: S1901M\n")


def test_a_cache_folder_under_a_file_means_no_cache(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    assert cache_folder() is None
    assert lalr_parser("position.lark").parse("phase: S1901M\n")


def test_caching_can_be_turned_off(monkeypatch):
    monkeypatch.setenv("DIPSOLVE_NO_CACHE", "1")
    assert cache_folder() is None
