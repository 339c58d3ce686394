// simu stand-in (device side only): see ATen/ATen.h
#pragma once

#include "ATen/ATen.h"
