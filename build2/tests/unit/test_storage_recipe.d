build2/tests/unit/test_storage_recipe.o: tests/unit/test_storage_recipe.c \
 storage/recipe.h storage/storage.h storage/backend.h lib/names.h
storage/recipe.h:
storage/storage.h:
storage/backend.h:
lib/names.h:
