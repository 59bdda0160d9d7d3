build2/builder/cmd_hostroot.o: builder/cmd_hostroot.c builder/commands.h \
 builder/hostroot.h builder/fsimage.h lib/log.h builder/repro.h \
 builder/tempfiles.h builder/tools.h
builder/commands.h:
builder/hostroot.h:
builder/fsimage.h:
lib/log.h:
builder/repro.h:
builder/tempfiles.h:
builder/tools.h:
