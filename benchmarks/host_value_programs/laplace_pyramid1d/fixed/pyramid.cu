#include "levels.h"

static void restrictLevel(const Level &fine, Level &coarse)
{
    launchRestrict(fine.d, fine.n, coarse.d, coarse.n);
}

static void detailLevel(const Level &coarse, Level &fine, float sign)
{
    launchProlongAdd(coarse.d, coarse.n, fine.d, fine.n, sign);
}

void decompose(Pyramid *p, int l)
{
    if (l + 1 >= p->levels)
        return;
    restrictLevel(p->lv[l], p->lv[l + 1]);
    detailLevel(p->lv[l + 1], p->lv[l], -1.0f);
    decompose(p, l + 1);
}

void reconstruct(Pyramid *p, int l)
{
    if (l + 1 >= p->levels)
        return;
    reconstruct(p, l + 1);
    detailLevel(p->lv[l + 1], p->lv[l], 1.0f);
}
