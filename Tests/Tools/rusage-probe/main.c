// rusage-probe REPORT PROGRAM [ARGUMENT...]
//
// Runs PROGRAM as a child of this small process and writes what the kernel measured of it to REPORT:
//   pid N                      as soon as the child exists (so a watcher can sample /proc/N or kill it)
//   status S maxrss K errno E cpu U
//                              when it has ended: the raw wait status, its peak resident set size in KiB, the
//                              errno of a failed exec (0 when PROGRAM started), and its CPU time (user and system)
//                              in microseconds
//
// Why a helper: on Linux posix_spawn is a vfork, and exec folds the spawning process's peak RSS into the child's
// ru_maxrss, so a large test process cannot measure a small child directly. A child forked from this tiny process
// starts with a fresh signal struct and a copy of a few hundred KiB, so its ru_maxrss is its own.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    fputs("usage: rusage-probe REPORT PROGRAM [ARGUMENT...]\n", stderr);
    return 64;
  }
  FILE *report = fopen(argv[1], "w");
  if (report == NULL) {
    fprintf(stderr, "rusage-probe: %s: %s\n", argv[1], strerror(errno));
    return 73;
  }
  int execErrors[2];
  if (pipe2(execErrors, O_CLOEXEC) != 0) {
    fprintf(stderr, "rusage-probe: pipe: %s\n", strerror(errno));
    return 71;
  }
  pid_t child = fork();
  if (child < 0) {
    fprintf(stderr, "rusage-probe: fork: %s\n", strerror(errno));
    return 71;
  }
  if (child == 0) {
    close(execErrors[0]);
    execv(argv[2], argv + 2);
    int failure = errno;
    ssize_t written = write(execErrors[1], &failure, sizeof failure);
    (void)written;
    _exit(127);
  }
  close(execErrors[1]);
  fprintf(report, "pid %d\n", (int)child);
  fflush(report);

  int execError = 0;
  ssize_t got;
  do {
    got = read(execErrors[0], &execError, sizeof execError);
  } while (got < 0 && errno == EINTR);
  if (got != (ssize_t)sizeof execError) execError = 0;
  close(execErrors[0]);

  int status = 0;
  struct rusage usage;
  memset(&usage, 0, sizeof usage);
  while (wait4(child, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      fprintf(stderr, "rusage-probe: wait4: %s\n", strerror(errno));
      return 71;
    }
  }
  long long cpu = (long long)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000LL + usage.ru_utime.tv_usec +
                  usage.ru_stime.tv_usec;
  fprintf(report, "status %d maxrss %ld errno %d cpu %lld\n", status, usage.ru_maxrss, execError, cpu);
  return fclose(report) == 0 ? 0 : 74;
}
