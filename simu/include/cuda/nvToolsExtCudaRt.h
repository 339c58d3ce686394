/* simu shim <nvToolsExtCudaRt.h>: see nvtx3/nvToolsExtCudaRt.h. */
#include "nvtx3/nvToolsExtCudaRt.h"
