/* gemm_rows: the time of a product C = A B of few rows A (m x k) against a weight matrix B (k x n)
 * by one cblas_dgemm, by m calls of cblas_dgemv, and by the transposed product C^T = B^T A^T (one
 * cblas_dgemm, both operands transposed) followed by its transposition into C, for m from 1 to 256
 * (la.c: GEMV_ROWS, TT_ROWS).
 *
 *   cc -O2 $(pkg-config --cflags openblas) scripts/gemm_rows.c -o /tmp/gemm_rows \
 *      $(pkg-config --libs openblas) && /tmp/gemm_rows 256 256
 *
 * Arguments: n k (default 256 256); one thread, as the verifier's workers run OpenBLAS. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void openblas_set_num_threads(int num_threads);

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    openblas_set_num_threads(1);
    int n = argc > 1 ? atoi(argv[1]) : 256, k = argc > 2 ? atoi(argv[2]) : 256;
    if (n <= 0 || k <= 0) {
        fprintf(stderr, "gemm_rows: n and k must be positive\n");
        return 1;
    }
    double *a = malloc(sizeof(double) * 256 * (size_t)k);
    double *b = malloc(sizeof(double) * (size_t)k * (size_t)n);
    double *c = malloc(sizeof(double) * 256 * (size_t)n);
    double *ct = malloc(sizeof(double) * 256 * (size_t)n);
    if (!a || !b || !c || !ct)
        return 1;
    for (long i = 0; i < 256L * k; i++)
        a[i] = rand() / (double)RAND_MAX - 0.5;
    for (long i = 0; i < (long)k * n; i++)
        b[i] = rand() / (double)RAND_MAX - 0.5;
    printf("B: %d x %d\n", k, n);
    for (int m = 1; m <= 256; m = m < 16 ? m + 1 : 2 * m) {
        int reps = 20000 / m;
        double t = now_s();
        for (int r = 0; r < reps; r++)
            cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0, a, k, b, n, 0.0,
                        c, n);
        double t_gemm = (now_s() - t) / reps;
        t = now_s();
        for (int r = 0; r < reps; r++)
            for (int i = 0; i < m; i++)
                cblas_dgemv(CblasRowMajor, CblasTrans, k, n, 1.0, b, n, a + (long)i * k, 1, 0.0,
                            c + (long)i * n, 1);
        double t_gemv = (now_s() - t) / reps;
        t = now_s();
        for (int r = 0; r < reps; r++) {
            cblas_dgemm(CblasRowMajor, CblasTrans, CblasTrans, n, m, k, 1.0, b, n, a, k, 0.0, ct,
                        m);
            for (long j = 0; j < n; j++)
                for (long i = 0; i < m; i++)
                    c[i * n + j] = ct[j * m + i];
        }
        double t_tt = (now_s() - t) / reps;
        printf("m = %3d   dgemm %8.1f us   %d x dgemv %8.1f us   transposed %8.1f us\n", m,
               1e6 * t_gemm, m, 1e6 * t_gemv, 1e6 * t_tt);
    }
    free(a);
    free(b);
    free(c);
    free(ct);
    return 0;
}
