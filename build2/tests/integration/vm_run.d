build2/tests/integration/vm_run.o: tests/integration/vm_run.c lib/log.h \
 lib/names.h appliance/vm.h appliance/domain.h appliance/profile.h \
 storage/backend.h
lib/log.h:
lib/names.h:
appliance/vm.h:
appliance/domain.h:
appliance/profile.h:
storage/backend.h:
