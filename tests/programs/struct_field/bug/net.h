#pragma once
struct Net {
    int hidden_n;
    float *weights;
};
Net *create(int inputs, int hidden, int outputs);
void forward(Net *net, float *buf);
