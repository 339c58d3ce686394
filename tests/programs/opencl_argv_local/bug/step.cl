// Each cell counts its live neighbours in the row above and below (wrapping) and writes its next state.
// Bug: a cell also clears its right neighbour's next state, which that neighbour's own work-item writes.
__kernel void step(__global const char *tick, __global char *tock, const unsigned int nx, const unsigned int ny) {
    const unsigned int x = get_global_id(0), y = get_global_id(1);
    const unsigned int id = y * nx + x;
    const unsigned int up = ((y + 1) % ny) * nx + x, down = ((y + ny - 1) % ny) * nx + x;
    const int live = tick[up] + tick[down];
    tock[id] = (live == 2) ? 1 : tick[id];
    if (x + 1 < nx)
        tock[id + 1] = 0;
}
