"""Babel extractors of our own (named in `babel.cfg`), for what `_()` calls cannot mark.

- `extract_html`: the web page's static text, the elements marked `data-i18n`, whose trimmed
  text is the msgid and whose `data-i18n` value, when not empty, its context (msgctxt), as
  `translatePage` in `static/i18n.js` reads them (yielded as a `pgettext` call).

Each extractor has Babel's signature: `(fileobj, keywords, comment_tags, options)` yielding
`(lineno, funcname, message, comments)`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

Extracted = tuple[Any, ...]


class _MarkedText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str, str]] = []  # line, context ("" for none), text
        self._open: list[tuple[str, int, str, list[str]]] = []  # tag, line, context, text pieces
        self._depth: list[int] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        marks = [value or "" for name, value in attrs if name == "data-i18n"]
        if marks:
            self._open.append((tag, self.getpos()[0], marks[0].strip(), []))
            self._depth.append(0)
        elif self._open and self._open[-1][0] == tag:
            self._depth[-1] += 1

    def handle_endtag(self, tag: str) -> None:
        if not self._open or self._open[-1][0] != tag:
            return
        if self._depth[-1]:
            self._depth[-1] -= 1
            return
        _tag, line, context, pieces = self._open.pop()
        self._depth.pop()
        text = "".join(pieces).strip()
        if text:
            self.found.append((line, context, text))

    def handle_data(self, data: str) -> None:
        for _tag, _line, _context, pieces in self._open:
            pieces.append(data)


def extract_html(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    parser = _MarkedText()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    for line, context, text in parser.found:
        if context:
            yield line, "pgettext", (context, text), []
        else:
            yield line, None, text, []
