/* vkskin bench --crowd: the persistent crowd against the per-call batch path (bench_crowd.c). */
#ifndef VKSKIN_BENCH_CROWD_H
#define VKSKIN_BENCH_CROWD_H

/* Nonzero when argv asks for the crowd benchmark (--crowd anywhere). */
int vks_bench_crowd_wanted(int argc, char **argv);
int vks_cmd_bench_crowd(int argc, char **argv);

#endif
