// wake_spins.c: does a thread woken after the process slept run beside its waker? (No part
// of the library: a probe of the machine, for bench/README.md, Threads.)
// A worker sleeps on a futex; every round the main thread sleeps IDLE_US, wakes the worker,
// and both spin SPIN_US; the round's time is SPIN_US where the two ran on two cores and up
// to twice that where they shared one.
//   cc -O2 -pthread bench/host/wake_spins.c -o /tmp/wake_spins && /tmp/wake_spins 10000 800
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_int round_word, worker_done;
static double spin_us;

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void spin(double us) {
  const double end = now_us() + us;
  while (now_us() < end) {
  }
}

static void* worker(void* arg) {
  (void)arg;
  for (;;) {
    const int seen = atomic_load(&round_word);
    syscall(SYS_futex, &round_word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
    if (atomic_load(&round_word) == seen) continue;  // spurious
    spin(spin_us);
    atomic_store(&worker_done, 1);
  }
  return NULL;
}

int main(int argc, char** argv) {
  const int idle_us = argc > 1 ? atoi(argv[1]) : 10000;
  spin_us = argc > 2 ? atof(argv[2]) : 800;
  const int rounds = argc > 3 ? atoi(argv[3]) : 15;
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  usleep(10000);
  printf("idle %d us, spins of %.0f us each; round times (us):", idle_us, spin_us);
  for (int r = 0; r < rounds; ++r) {
    if (idle_us > 0) usleep(idle_us);
    atomic_store(&worker_done, 0);
    const double t0 = now_us();
    atomic_fetch_add(&round_word, 1);
    syscall(SYS_futex, &round_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    spin(spin_us);
    while (!atomic_load(&worker_done)) {
    }
    printf(" %.0f", now_us() - t0);
  }
  printf("\n");
  return 0;
}
