/* builtin.h — the roi commands, one small file each in builtin/: a command parses its options,
 * calls the libraries and prints. main.c's commands[] table dispatches to them.
 *
 * The libraries are folders by concern, in the order the data flows:
 *
 *   input → price → report
 *
 *   base/       what every folder uses: arenas and arrays, errors as values, option parsing and
 *               exit statuses, reading files, numbers as text, text tables, JSON members,
 *               bounded least squares
 *   input/      what roi reads and joins: the ELF and its .roi.meta, profiles, cost models, the
 *               operation vocabulary and ABI types, block counts, a run's inputs loaded in one
 *               call (session.h) and the warnings about them
 *   price/      what a run costs: the estimate by operation, function and line, the function →
 *               loop → line hierarchy, two runs matched (roi compare)
 *   machine/    what a run costs by the firmware's own instructions: the AVR and Thumb decoders
 *               with their cores' timings (the one decoder of each instruction set, roi stack's
 *               and roi run --measured's too), the machine flow solved from the block counts,
 *               library routines priced (roi estimate --price machine)
 *   report/     every output for people and tools: text, JSON, callgrind, lcov and gcov's JSON,
 *               folded stacks, HTML, and the outputs of roi ops, compare, budget (JUnit XML too),
 *               fit and stack
 *
 * and a folder for each command that does more than price a run, between price and report:
 *
 *   run/        firmware run in simavr (AVR) and QEMU (Cortex-M), its counters read out (roi run)
 *   calibrate/  a cost model fitted to simavr's exact cycles of a corpus (roi calibrate)
 *   stack/      the static stack: frames, the call graph read from the machine code, the
 *               worst-case depth from each root, the RAM margin (roi stack)
 *   budget/     budget files read and checked against a run and the static stack (roi budget)
 *   gcov/       gcov's line counts from roi's block counts, and roi's counts against gcov's
 *               (roi gcov-check; report/ uses the line counts too)
 *   transfer/   a host run's counts carried onto a firmware build of the same sources (roi transfer)
 *   growth/     how the cost grows with the input size (roi fit)
 *
 * No folder uses one below it in these lists, but for report/, which shows what the others made.
 * Each header says what it holds; the .c files beside it are its one implementation. */
#ifndef ROI_BUILTIN_H
#define ROI_BUILTIN_H

/* The commands; argv[0] is the command's name. Table and dispatch: main.c. */
int cmd_ops(int argc, char **argv);
int cmd_estimate(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_transfer(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_gcov_check(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_budget(int argc, char **argv);
int cmd_fit(int argc, char **argv);
int cmd_stack(int argc, char **argv);

#endif
