/* simu shim <stdbool.h>: bool/true/false for C; nothing to do in C++. */
#ifndef __SIMU_STDBOOL_H
#define __SIMU_STDBOOL_H
#ifndef __cplusplus
#define bool _Bool
#define true 1
#define false 0
#endif
#define __bool_true_false_are_defined 1
#endif /* __SIMU_STDBOOL_H */
