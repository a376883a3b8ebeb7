# counts.jq — what a run counted, from 'roi estimate --json': every C operation's count and every
# function's calls, in one order. Not the rows read off a build's own machine code (saves, spills,
# jumps: docs/ops.md), which the counters themselves change. Two builds of one program counted
# differently (edges, a counter per block) must give the same (torture/run.sh, csmith/run.sh --blocks).
{ops: [.ops[] | select(.kind | IN("save", "frame", "spill", "far", "adjust", "jump") | not)
       | del(.cycles, .energy_j)] | sort,
 calls: [.functions[] | {name, calls}] | sort}
