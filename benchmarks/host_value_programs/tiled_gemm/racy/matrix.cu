#include "matrix.h"

static float nextUniform(unsigned &state)
{
    state = state * 1664525u + 1013904223u;
    return (float)(state >> 8) / 16777216.0f - 0.5f;
}

void initMatrix(Matrix &m, int rows, int cols, unsigned seed)
{
    m.rows = rows;
    m.cols = cols;
    m.host.resize((size_t)rows * cols);
    unsigned s = seed;
    for (size_t i = 0; i < m.host.size(); ++i)
        m.host[i] = nextUniform(s);
    m.dev.allocate(m.host.size());
    m.dev.upload(m.host);
}

void initZero(Matrix &m, int rows, int cols)
{
    m.rows = rows;
    m.cols = cols;
    m.host.assign((size_t)rows * cols, 0.0f);
    m.dev.allocate(m.host.size());
    m.dev.upload(m.host);
}

void matmulHost(const Matrix &a, const Matrix &b, std::vector<float> &c)
{
    c.assign((size_t)a.rows * b.cols, 0.0f);
    for (int i = 0; i < a.rows; ++i)
        for (int k = 0; k < a.cols; ++k) {
            float aik = a.host[(size_t)i * a.cols + k];
            for (int j = 0; j < b.cols; ++j)
                c[(size_t)i * b.cols + j] += aik * b.host[(size_t)k * b.cols + j];
        }
}
