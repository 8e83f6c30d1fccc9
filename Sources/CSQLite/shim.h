// CSQLite: the system SQLite (Debian libsqlite3-dev) for TrueTrack's store.
#ifndef TRUETRACK_CSQLITE_SHIM_H
#define TRUETRACK_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
