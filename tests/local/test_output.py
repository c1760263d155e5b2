"""A host's output as the session's stream shows it: labelled lines and progress-bar updates, bounded.

The cutter (``_output.HostOutput``) is fed bytes directly; the last tests run real hosts: one
drawing a 200,000-update progress bar then a line of megabytes without a newline, and two whose
update and line meet in the stream.
"""
import random
import tracemalloc

from sagemaker_hetero.local import _output
from sagemaker_hetero.local._output import LINE_LIMIT, HostOutput

from ._helpers import estimator_for

LABEL = "[g/algo-1] "


def shown(chunks, limit=LINE_LIMIT):
    """``(text, lines, most held)`` for ``chunks`` fed one by one, then the end of the output."""
    out = HostOutput(LABEL, limit)
    texts, most = [], 0
    for chunk in chunks:
        texts.append(out.feed(chunk))
        most = max(most, out.held)
    texts.append(out.end())
    assert out.held == 0
    return "".join(texts), list(out.lines), most


def test_lines_are_labelled_and_crlf_is_one_end():
    assert shown([b"one\ntwo\r\nthree"]) == (
        LABEL + "one\n" + LABEL + "two\n" + LABEL + "three\n", ["one", "two", "three"], 5
    )
    assert shown([b"\n\n"])[0] == LABEL + "\n" + LABEL + "\n"  # empty lines stay


def test_each_carriage_return_update_is_written_labelled_and_the_line_ends_with_the_last():
    text, lines, _ = shown([b"\r 10%|#  |\r 20%|## |", b"\r100%|###|\n", b"done\n"])
    assert text == (LABEL + " 10%|#  |\r" + LABEL + " 20%|## |\r" + LABEL + "100%|###|\n" + LABEL + "done\n")
    assert lines == ["100%|###|", "done"]  # what a terminal leaves on screen


def test_an_update_shows_once_the_next_carriage_return_arrives_and_a_bar_never_ended_is_kept():
    out = HostOutput(LABEL)
    assert out.feed(b"\r1/3") == ""  # may go on: held
    assert out.feed(b"\r2/3\r") == LABEL + "1/3\r"  # the last \r waits: it may begin \r\n
    assert out.feed(b"3/3") == LABEL + "2/3\r"
    assert out.end() == LABEL + "3/3\n"
    out = HostOutput(LABEL)
    assert out.feed(b"a\rb\rc") == LABEL + "a\r" + LABEL + "b\r"
    assert out.feed(b"\rd") == LABEL + "c\r"
    assert list(out.lines) == []


def test_a_crlf_split_between_chunks_ends_the_line_once():
    assert shown([b"x\r", b"\ny\r", b"\n"]) == (LABEL + "x\n" + LABEL + "y\n", ["x", "y"], 2)


def test_empty_updates_are_the_only_thing_dropped():
    assert shown([b"\r\r\ra\r\r\n\r\r"])[0] == LABEL + "a\n"


def test_every_way_of_cutting_a_stream_into_chunks_shows_the_same():
    stream = "\r 1%\r 2%\nline é\r\nbar\r\r50%\r\n\nlast ü".encode("utf-8") * 3
    whole = shown([stream])
    rng = random.Random(7)
    for size in [1, 2, 3, 5, 7, 11]:
        assert shown([stream[i:i + size] for i in range(0, len(stream), size)])[:2] == whole[:2]
    for _ in range(50):
        cuts = sorted(rng.sample(range(1, len(stream)), 6))
        chunks = [stream[a:b] for a, b in zip([0] + cuts, cuts + [len(stream)])]
        assert shown(chunks)[:2] == whole[:2]


def test_a_progress_bar_holds_no_more_than_its_last_update_however_long_it_runs():
    # The cost of a chunk is what is held plus the chunk: what is held must not grow with the bar.
    updates = [b"\r%6d |%s|" % (i, b"#" * (i % 30)) for i in range(20000)]
    stream = b"".join(updates)
    chunks = [stream[i:i + 97] for i in range(0, len(stream), 97)]
    text, lines, most = shown(chunks)
    assert most <= max(len(u) for u in updates) + 1
    records = text.split("\r")
    assert len(records) == 20000 and records[-1] == LABEL + updates[-1][1:].decode() + "\n"
    assert all(r.startswith(LABEL) for r in records)
    assert lines == [updates[-1][1:].decode()]


def test_a_line_without_a_newline_is_written_in_pieces_of_the_limit_and_nothing_is_lost():
    line = ("ab" * 1000 + "é" + "cd" * 1000).encode("utf-8")  # é straddles a cut at 2001 bytes
    chunks = [line[i:i + 300] for i in range(0, len(line), 300)]
    text, lines, most = shown(chunks, limit=2001)
    assert most < 2001 + 300
    pieces = text.split("\n")[:-1]
    assert all(p.startswith(LABEL) for p in pieces)
    assert "".join(p[len(LABEL):] for p in pieces) == line.decode("utf-8")  # é not cut in two
    assert [len(p[len(LABEL):].encode("utf-8")) for p in pieces] == [2000, 2001, 1]
    assert lines == [p[len(LABEL):] for p in pieces]


def test_bytes_that_are_not_utf8_are_cut_at_the_limit_and_replaced():
    text, _, _ = shown([b"\x80" * 10], limit=4)
    assert text == (LABEL + "\ufffd" * 4 + "\n") * 2 + LABEL + "\ufffd" * 2 + "\n"


def test_only_the_last_lines_are_kept_for_the_error():
    _, lines, _ = shown([b"".join(b"%d\r%d!\n" % (i, i) for i in range(100))])
    assert lines == ["%d!" % i for i in range(100 - _output.LAST_LINES, 100)]


class Expecting(object):
    """An output stream that compares what the host's records are, as they come, with ``expected``
    (built beforehand) and keeps only a position: it costs the driver no memory of its own."""

    def __init__(self, expected):
        self.expected = expected
        self.at = 0
        self.wrong = None  # the first write that was not what was expected next

    def write(self, text):
        if text.startswith("[local] ") or self.wrong is not None:
            return
        if self.expected.startswith(text, self.at):
            self.at += len(text)
        else:
            self.wrong = (self.at, text[:200])

    def flush(self):
        pass


def test_a_host_drawing_a_bar_then_printing_megabytes_unended_keeps_the_driver_small(session_factory, write_code):
    code = write_code(
        """
        import sys
        out = sys.stdout.buffer
        out.write(b"".join(b"\\r%d" % i for i in range(200000)))
        out.write(b"\\r\\n")
        for _ in range(64):
            out.write(b"x" * 65536)
        out.flush()
        """
    )
    label = "[homogeneousCluster/algo-1] "
    # Every update labelled, the last one ending the line; 4 MiB without a newline: 64 lines of 64 KiB.
    expected = label + ("\r" + label).join(map(str, range(200000))) + "\n" + (label + "x" * LINE_LIMIT + "\n") * 64
    stream = Expecting(expected)
    estimator = estimator_for(session_factory(out=stream), code, groups=None)
    tracemalloc.start()
    try:
        estimator.fit()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert stream.wrong is None and stream.at == len(expected)
    # The host printed 1.3 MB and 4 MiB on two lines: the driver held a bounded part of each.
    assert peak < 4 * 1024 * 1024, peak


class Relay(object):
    """An output stream that keeps everything and creates ``flags[text]`` once ``text`` was written."""

    def __init__(self, flags):
        self.flags = dict(flags)
        self.text = ""

    def write(self, text):
        self.text += text
        for marker, path in list(self.flags.items()):
            if marker in self.text:
                open(path, "w").close()
                del self.flags[marker]

    def flush(self):
        pass


def test_another_hosts_line_after_an_update_starts_on_a_new_line(session_factory, write_code, tmp_path):
    # algo-1 draws two updates; once the stream shows them, algo-2 prints a line; once the stream
    # shows it, algo-1 ends its bar. The stream's flags order the hosts, whatever the timing.
    first, second = str(tmp_path / "updates-shown"), str(tmp_path / "line-shown")
    code = write_code(
        """
        import os, sys, time
        def wait_for(path):
            deadline = time.monotonic() + 60
            while not os.path.exists(path):
                if time.monotonic() > deadline:
                    sys.exit("never shown: " + path)
                time.sleep(0.01)
        if os.environ["SM_CURRENT_HOST"] == "algo-1":
            sys.stdout.write("\\ra\\rb\\rc")
            wait_for(%r)
            sys.stdout.write("\\n")
        else:
            wait_for(%r)
            print("line")
        """ % (second, first)
    )
    stream = Relay({"[cpu/algo-1] b\r": first, "[cpu/algo-2] line\n": second})
    estimator_for(session_factory(out=stream), code, groups=(("cpu", "ml.c5.xlarge", 2),)).fit()
    hosts = "".join(line for line in stream.text.splitlines(True) if not line.startswith("[local]"))
    assert hosts == "[cpu/algo-1] a\r[cpu/algo-1] b\r\n[cpu/algo-2] line\n[cpu/algo-1] c\n"
