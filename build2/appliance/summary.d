build2/appliance/summary.o: appliance/summary.c appliance/summary.h \
 appliance/journal.h appliance/plan.h appliance/profile.h \
 storage/backend.h lib/names.h appliance/stats.h \
 /usr/include/json-c/json.h /usr/include/json-c/arraylist.h \
 /usr/include/json-c/debug.h /usr/include/json-c/json_c_version.h \
 /usr/include/json-c/json_object.h /usr/include/json-c/json_inttypes.h \
 /usr/include/json-c/json_config.h /usr/include/json-c/json_types.h \
 /usr/include/json-c/printbuf.h \
 /usr/include/json-c/json_object_iterator.h \
 /usr/include/json-c/json_pointer.h /usr/include/json-c/json_tokener.h \
 /usr/include/json-c/json_util.h /usr/include/json-c/linkhash.h \
 lib/cleanup.h appliance/jsonget.h lib/log.h
appliance/summary.h:
appliance/journal.h:
appliance/plan.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
appliance/stats.h:
/usr/include/json-c/json.h:
/usr/include/json-c/arraylist.h:
/usr/include/json-c/debug.h:
/usr/include/json-c/json_c_version.h:
/usr/include/json-c/json_object.h:
/usr/include/json-c/json_inttypes.h:
/usr/include/json-c/json_config.h:
/usr/include/json-c/json_types.h:
/usr/include/json-c/printbuf.h:
/usr/include/json-c/json_object_iterator.h:
/usr/include/json-c/json_pointer.h:
/usr/include/json-c/json_tokener.h:
/usr/include/json-c/json_util.h:
/usr/include/json-c/linkhash.h:
lib/cleanup.h:
appliance/jsonget.h:
lib/log.h:
