// A driver for Cloudict's Connect6 VCF search (lang010/cloudict), for scripts/peers/vs-cloudict.
// Compiled with Cloudict's own sources in place of its main.cc (it is not part of cpbim's build):
//     g++ -O2 -I CLOUDICT/src CLOUDICT/src/*.cc (all but main.cc) cloudict-vcf.cc -o cloudict-vcf
// and run in the folder holding Cloudict's patterns.in. Reads positions from stdin, one a line, in
// cpbim's notation (stones in the order played, black's single stone first, then two a move;
// anything after '#' ignored), and prints for each: "win|none MICROSECONDS NODES", the time being
// that of Cloudict's before_search + vcf_search for the side to move, as its engine calls them.
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tools.h"
#include "vcf_search.h"

static bool parse_point(const std::string& s, pos_t* p) {
    if (s.size() < 2 || !isalpha((unsigned char)s[0])) return false;
    int col = toupper((unsigned char)s[0]) - 'A';
    int row = atoi(s.c_str() + 1) - 1;
    if (col < 0 || col >= 19 || row < 0 || row >= 19) return false;
    p->x = row + 1;  // a reflection of cpbim's board: the same positions up to symmetry
    p->y = col + 1;
    return true;
}

int main() {
    static CVCFSearch search;  // large: keep it off the stack
    search.init();
    std::string line;
    while (std::getline(std::cin, line)) {
        line = line.substr(0, line.find('#'));
        std::istringstream words(line);
        std::vector<pos_t> stones;
        std::string w;
        bool ok = true;
        while (words >> w) {
            pos_t p;
            if (!parse_point(w, &p)) { ok = false; break; }
            stones.push_back(p);
        }
        if (!ok) { printf("error\n"); fflush(stdout); continue; }
        if (stones.empty()) continue;
        char board[GRID_NUM][GRID_NUM];
        init_board(board);
        for (size_t i = 0; i < stones.size(); i++) {
            // stone 0 is black's; then stones 1-2 white's, 3-4 black's, ...
            char colour = (i == 0 || ((i - 1) / 2) % 2 == 1) ? BLACK : WHITE;
            board[stones[i].x][stones[i].y] = colour;
        }
        size_t n = stones.size();
        size_t moves = 1 + (n - 1 + 1) / 2;  // moves made, the last possibly of one stone
        char to_move = (moves % 2 == 0) ? BLACK : WHITE;
        move_t last;  // the last move (one or two stones), as the engine passes it
        last.positions[0] = stones[n - 1];
        last.positions[1] = (n >= 2 && n % 2 == 1) ? stones[n - 2] : stones[n - 1];
        last.score = 0;
        move_t best;
        memset(&best, 0, sizeof(best));
        search.init_game();
        auto start = std::chrono::steady_clock::now();
        search.before_search(board, to_move);
        bool win = search.vcf_search(0, to_move, &best, &last, 0, -1);
        auto end = std::chrono::steady_clock::now();
        double us = std::chrono::duration<double, std::micro>(end - start).count();
        printf("%s %.1f %d\n", win ? "win" : "none", us, search.m_vcf_node);
        fflush(stdout);
    }
    return 0;
}
