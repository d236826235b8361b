"""Range counts (adjudicator/facts/fields.py): kept once per map for the boards of a whole turn, they
must still follow the board asked about."""

from collections import deque
from dataclasses import replace

from adjudicator.facts import fields
from adjudicator.position.model import Position
from bench import boards


def _counted(position: Position, source: str) -> dict[str, int]:
    """Real hexes from ``source`` to every node, counted afresh."""
    dist = {source: 0}
    queue = deque([source])
    while queue:
        node = queue.popleft()
        for near in position.neighbours(node):
            if near not in dist:
                dist[near] = dist[node] + 1
                queue.append(near)
    return dist


def test_range_counts_follow_the_gates_and_the_map_of_the_board_asked() -> None:
    position = boards.realistic(0, 60, 5)
    faction, gate = next((f, g) for f, g in sorted(position.gates.items()) if len(g.beside) > 1)
    before = fields.range_counts(position, [gate.node], None)[gate.node]
    # The same map, the gate beside one hex only: the hexes it touched before are further now.
    narrowed = replace(position, gates={**position.gates, faction: replace(gate, beside=gate.beside[:1])})
    after = fields.range_counts(narrowed, [gate.node], None)[gate.node]
    assert before == _counted(position, gate.node)
    assert after == _counted(narrowed, gate.node) != before
    # Another map (a copy without one hex's links): counted on it, not on the one before.
    cut = gate.beside[1]
    adjacency = {h: frozenset(n - {cut}) for h, n in position.adjacency.items() if h != cut}
    other = replace(narrowed, adjacency=adjacency)
    assert fields.range_counts(other, [gate.node], None)[gate.node] == _counted(other, gate.node)
    assert fields.range_counts(position, [gate.node], 2)[gate.node] == {
        n: d for n, d in _counted(position, gate.node).items() if d <= 2}
