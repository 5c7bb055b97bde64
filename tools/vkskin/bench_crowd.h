/* vkskin bench --crowd: the persistent crowd against the per-call batch path (bench_crowd.c). */
#ifndef VKSKIN_BENCH_CROWD_H
#define VKSKIN_BENCH_CROWD_H

int vks_cmd_bench_crowd(int argc, char **argv);

#endif
