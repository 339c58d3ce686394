/* simu shim <nvtx3/nvToolsExt.h>: the NVTX v3 header path; see ../nvToolsExt.h. */
#include "../nvToolsExt.h"
