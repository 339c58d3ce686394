#pragma once
#include <vector>
#include "device_array.h"

struct Matrix {
    int rows = 0;
    int cols = 0;
    std::vector<float> host;
    DeviceArray<float> dev;
};

void initMatrix(Matrix &m, int rows, int cols, unsigned seed);
void initZero(Matrix &m, int rows, int cols);
void matmulHost(const Matrix &a, const Matrix &b, std::vector<float> &c);
