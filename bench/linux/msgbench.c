/*
 * msgbench: a hackbench-like scheduler/IPC load for the Linux overcommit
 * benchmark (written for this project).  G groups of F sender and F
 * receiver processes; every sender writes L messages of 100 bytes to each
 * receiver of its group over a socketpair; prints the wall time.
 * Lots of wake-ups and short lock hold times: the case PV spinlocks
 * (kvm-pv-unhalt) and PV IPIs help under vCPU overcommit.
 *
 * Usage: msgbench [groups=4] [loops=2000] [fds=20]
 * Output: "MSGBENCH groups=G fds=F loops=L seconds=S"
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG 100

static void full_write(int fd, const char *b, size_t n)
{
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w <= 0) {
            perror("write");
            exit(1);
        }
        b += w;
        n -= (size_t)w;
    }
}

static void full_read(int fd, char *b, size_t n)
{
    while (n) {
        ssize_t r = read(fd, b, n);
        if (r <= 0) {
            perror("read");
            exit(1);
        }
        b += r;
        n -= (size_t)r;
    }
}

int main(int argc, char **argv)
{
    int groups = argc > 1 ? atoi(argv[1]) : 4;
    int loops = argc > 2 ? atoi(argv[2]) : 2000;
    int fds = argc > 3 ? atoi(argv[3]) : 20;
    int start[2];
    struct timespec t0, t1;
    char go;

    if (pipe(start) < 0) {
        perror("pipe");
        return 1;
    }
    int nproc = 0;
    for (int g = 0; g < groups; g++) {
        int (*sv)[2] = calloc((size_t)fds, sizeof(*sv));
        for (int r = 0; r < fds; r++) {
            if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv[r]) < 0) {
                perror("socketpair");
                return 1;
            }
        }
        for (int r = 0; r < fds; r++) {           /* receivers */
            if (fork() == 0) {
                char buf[MSG];
                for (long i = 0; i < (long)loops * fds; i++) {
                    full_read(sv[r][0], buf, MSG);
                }
                _exit(0);
            }
            nproc++;
        }
        for (int s = 0; s < fds; s++) {           /* senders */
            if (fork() == 0) {
                char buf[MSG];
                memset(buf, 's', sizeof(buf));
                full_read(start[0], &go, 1);
                for (int i = 0; i < loops; i++) {
                    for (int r = 0; r < fds; r++) {
                        full_write(sv[r][1], buf, MSG);
                    }
                }
                _exit(0);
            }
            nproc++;
        }
        for (int r = 0; r < fds; r++) {
            close(sv[r][0]);
            close(sv[r][1]);
        }
        free(sv);
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < groups * fds; i++) {
        full_write(start[1], "g", 1);
    }
    for (int i = 0; i < nproc; i++) {
        int st;
        if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
            fprintf(stderr, "msgbench: a worker failed\n");
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("MSGBENCH groups=%d fds=%d loops=%d seconds=%.3f\n", groups, fds, loops,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}
