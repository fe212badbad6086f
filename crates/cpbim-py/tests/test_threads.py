"""Searches release the interpreter lock, stop on Ctrl-C, and turn panics into RuntimeError."""

import _thread
import signal
import threading
import time

import cpbim
import pytest

# A real position whose search takes a few hundredths of a second (256,564 nodes to a win since
# the pair generation of 6cdd363; 410,221 before it).
HEAVY = (
    "j10 k12 j13 l11 l10 l12 k10 j12 k13 i11 i12 i13 k11 m9 h14 m11 j11 n11 k9 l9 l8 l7 h11 j8 "
    "g10 j7 k14 l15 h12 j14 i14 g14 l14 l13 m12 j15 o10 k7 m7 i7 n7"
)


def test_the_heavy_position_is_heavy():
    answer = cpbim.solve(HEAVY)
    assert answer["result"] == "win" and answer["nodes"] > 200_000


def test_other_threads_run_during_a_search():
    """While one thread searches for a second or more, the main thread keeps running Python:
    the longest pause between its steps stays far below the search's length (with the lock
    held it would be the whole search)."""
    done = threading.Event()
    took = []

    def search():
        start = time.perf_counter()
        cpbim.solve_batch([HEAVY] * 30, threads=1)
        took.append(time.perf_counter() - start)
        done.set()

    worker = threading.Thread(target=search)
    worker.start()
    steps, longest, last = 0, 0.0, time.perf_counter()
    while not done.is_set():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
        steps += 1
    worker.join()
    assert took[0] > 0.5, "the search was too short to tell"
    assert longest < took[0] / 4, (longest, took[0])
    assert steps > 1000


def test_threads_search_at_once_with_the_same_answers():
    answers = {}

    def search(i):
        answers[i] = cpbim.solve(HEAVY)

    threads = [threading.Thread(target=search, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    strip = [{k: v for k, v in a.items() if k != "time_ms"} for a in answers.values()]
    assert len(strip) == 4 and all(a == strip[0] for a in strip)


def test_ctrl_c_stops_a_batch():
    """A signal (here `_thread.interrupt_main`, what Ctrl-C does) stops the search at once and
    raises KeyboardInterrupt; without it this batch would take tens of seconds.

    Python's own SIGINT handler is put in place for the test: a process started in the
    background by a shell without job control (`scripts/test &`, nohup) inherits SIGINT
    ignored, and `interrupt_main` then does nothing (measured: the batch ran to its end, 108 s)."""
    timer = threading.Timer(0.3, _thread.interrupt_main)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        start = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            cpbim.solve_batch([HEAVY] * 2000, threads=1)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.perf_counter() - start < 3.0
    # The module still works afterwards.
    assert cpbim.solve("J10 K11 I11")["result"] == "none"


def test_a_panic_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="internal error"):
        cpbim._cpbim._panic()
    assert cpbim.solve("J10 K11 I11")["result"] == "none"
