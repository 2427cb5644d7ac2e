// core/optimize.h: the one source-level optimisation macro.
//
// Files are compiled at the levels listed in CMakeLists.txt ("Optimisation levels", the one
// place that says which code is built for speed and which for size, and why). Inside a file
// built for speed, code that runs once per call (planning, tables, the bookkeeping of a run)
// is marked OSW_MINSIZE: compiled for size, like the size-built files, so that the download
// stays small while the loops that do the work keep the file's level.
#pragma once

#define OSW_MINSIZE __attribute__((minsize))
