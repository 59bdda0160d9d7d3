/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "backend.h"

#include "names.h"

NAME_TABLE(image_format, "raw", "qcow2")
NAME_TABLE(backend, "ext4-file", "lvm", "qcow2", "raw")
NAME_TABLE(qcow2_prealloc, "off", "metadata", "falloc", "full")
NAME_TABLE(raw_prealloc, "sparse", "falloc", "full")
