/* simu shim <cusparse_v2.h>: the same as <cusparse.h>. */
#include "cusparse.h"
