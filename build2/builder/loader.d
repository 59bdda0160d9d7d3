build2/builder/loader.o: builder/loader.c builder/loader.h \
 appliance/profile.h storage/backend.h lib/names.h \
 /usr/include/iniparser/iniparser.h /usr/include/iniparser/dictionary.h \
 lib/cleanup.h appliance/keys.h appliance/profile.h lib/log.h lib/parse.h \
 builder/planner.h appliance/plan.h
builder/loader.h:
appliance/profile.h:
storage/backend.h:
lib/names.h:
/usr/include/iniparser/iniparser.h:
/usr/include/iniparser/dictionary.h:
lib/cleanup.h:
appliance/keys.h:
appliance/profile.h:
lib/log.h:
lib/parse.h:
builder/planner.h:
appliance/plan.h:
