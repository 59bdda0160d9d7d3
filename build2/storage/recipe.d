build2/storage/recipe.o: storage/recipe.c storage/recipe.h \
 storage/storage.h storage/backend.h lib/names.h lib/parse.h
storage/recipe.h:
storage/storage.h:
storage/backend.h:
lib/names.h:
lib/parse.h:
