/* An independent walk of Minas de Ouro's full cycle (issue 73's
 * reference): written from assets/paytables/minas-cascata.ron and its
 * stated rule alone, sharing no code with the Rust analysis. 243 ways on
 * 5 reels of 3 rows; the pickaxe (PI) is wild on reels 2-5 for every
 * symbol; every cell of a way win is removed, the symbols left fall, the
 * strip fills each reel from above (the stop before the highest symbol
 * read so far); windows pay x1, x2, x3, then x5, at most 20 cascades.
 * Single thread. Prints the cycle, the total win and the RTP.
 *   cc -O2 -o cascade_walk cascade_walk.c && ./cascade_walk */
#include <stdio.h>
#include <string.h>

enum { N9, N10, J, Q, K, A, RU, ES, DI, PI, NSYM };
#define REELS 5
#define ROWS 3
#define LEN 20

static const int strips[REELS][LEN] = {
    {J, DI, N10, RU, N9, N10, K, K, Q, A, J, J, N10, Q, A, N10, N9, N9, ES, J},
    {N9, ES, K, PI, N10, A, Q, Q, K, J, DI, J, N10, RU, A, N9, Q, N9, N10, N9},
    {N9, N10, N10, K, N9, RU, N9, N10, A, DI, N10, N10, RU, PI, N9, Q, A, Q, J, ES},
    {N10, DI, K, ES, N9, N9, PI, N9, A, N10, RU, A, K, J, N9, N10, Q, ES, J, J},
    {N10, A, ES, J, N9, N10, PI, A, DI, Q, K, N9, RU, N10, N9, J, Q, K, N9, N9},
};
/* pays[symbol][run] for runs of 3, 4, 5 */
static const unsigned long pays[NSYM][6] = {
    [N9] = {0, 0, 0, 3, 8, 15},     [N10] = {0, 0, 0, 3, 8, 15},   [J] = {0, 0, 0, 5, 12, 23},
    [Q] = {0, 0, 0, 5, 12, 23},     [K] = {0, 0, 0, 8, 15, 38},    [A] = {0, 0, 0, 8, 15, 38},
    [RU] = {0, 0, 0, 15, 38, 92},   [ES] = {0, 0, 0, 23, 62, 154}, [DI] = {0, 0, 0, 38, 116, 385},
};
static const unsigned long mult[] = {1, 2, 3, 5};

/* The window's win at multiplier m; marks the cells won in `gone`. */
static unsigned long pay_window(int w[REELS][ROWS], int gone[REELS][ROWS], unsigned long m) {
    unsigned long total = 0;
    for (int s = 0; s < PI; s++) {
        unsigned long ways = 1;
        int run = 0;
        for (int r = 0; r < REELS; r++) {
            int n = 0;
            for (int row = 0; row < ROWS; row++)
                if (w[r][row] == s || (r > 0 && w[r][row] == PI)) n++;
            if (n == 0) break;
            ways *= n;
            run++;
        }
        if (run < 3 || pays[s][run] == 0) continue;
        total += ways * pays[s][run] * m;
        for (int r = 0; r < run; r++)
            for (int row = 0; row < ROWS; row++)
                if (w[r][row] == s || (r > 0 && w[r][row] == PI)) gone[r][row] = 1;
    }
    return total;
}

int main(void) {
    unsigned long long cycle = 0, total = 0;
    int st[REELS];
    for (st[0] = 0; st[0] < LEN; st[0]++)
    for (st[1] = 0; st[1] < LEN; st[1]++)
    for (st[2] = 0; st[2] < LEN; st[2]++)
    for (st[3] = 0; st[3] < LEN; st[3]++)
    for (st[4] = 0; st[4] < LEN; st[4]++) {
        int pos[REELS][ROWS], top[REELS], w[REELS][ROWS];
        for (int r = 0; r < REELS; r++) {
            top[r] = st[r];
            for (int row = 0; row < ROWS; row++) pos[r][row] = (st[r] + row) % LEN;
        }
        unsigned long win = 0;
        for (int k = 0; k <= 20; k++) {
            int gone[REELS][ROWS];
            memset(gone, 0, sizeof gone);
            for (int r = 0; r < REELS; r++)
                for (int row = 0; row < ROWS; row++) w[r][row] = strips[r][pos[r][row]];
            unsigned long got = pay_window(w, gone, mult[k < 3 ? k : 3]);
            win += got;
            if (got == 0 || k == 20) break;
            for (int r = 0; r < REELS; r++) {
                int kept[ROWS], nk = 0;
                for (int row = 0; row < ROWS; row++)
                    if (!gone[r][row]) kept[nk++] = pos[r][row];
                int fresh = ROWS - nk;
                for (int row = fresh - 1; row >= 0; row--) {
                    top[r] = (top[r] + LEN - 1) % LEN;
                    pos[r][row] = top[r];
                }
                for (int j = 0; j < nk; j++) pos[r][fresh + j] = kept[j];
            }
        }
        cycle++;
        total += win;
    }
    printf("cycle %llu total win %llu RTP %.6f %%\n", cycle, total, 100.0 * (double)total / ((double)cycle * 25.0));
    return 0;
}
