"""The map picture's geometry: Directional Attack's straight lines (adjudicator/position/hexmap.py)."""

from adjudicator.position.hexmap import line_from, parse_map

# Even rows are drawn half a hex to the right:
#   1  a1 b1 c1 d1
#   2   a2 b2 c2 d2
#   3  a3 b3 c3 d3
#   4   a4 b4 c4 d4
MAP = "1 p p p p\n2 p p p p\n3 p . p p\n4 p p p p"


def test_a_line_runs_straight_across_both_kinds_of_row_and_across_gaps() -> None:
    hexes, _, problems = parse_map(MAP)
    assert not problems
    assert line_from(hexes, "a1", "b1") == ("b1", "c1", "d1")
    assert line_from(hexes, "a1", "a2") == ("a2", "b4")  # down and right, across the gap at b3
    assert line_from(hexes, "c1", "b2") == ("b2", "a4")  # down and left, across it too
    assert line_from(hexes, "d4", "d3") == ("d3", "c2", "c1")  # up and left from a shifted row


def test_a_hex_not_beside_the_start_gives_no_line() -> None:
    hexes, _, _ = parse_map(MAP)
    assert line_from(hexes, "a1", "c1") == ()
    assert line_from(hexes, "d4", "c3") == ()
