# SPDX-License-Identifier: GPL-2.0-or-later
# Headers of this folder and the ones below it only (GNUmakefile).
$(B)/profile/%.o: INCDIRS = $(PROFILE_INCDIRS)

# The profile model, shared by the builder and the lab server: the typed
# profile, the key table, the plan and its JSON form (libprofile.a, in
# the appliance's init too); and what only the builder links
# (libprofile-build.a): the INI loader (iniparser), the planner that
# expands a profile into cells and runs, the key reference (typo hints,
# doc strings, Markdown).
PROFILE_SRCS := profile/profile.c profile/keys.c profile/plan.c profile/plan_read.c \
	profile/uploadurl.c profile/bmcspec.c profile/cmdline.c \
	profile/questions.c
PROFILE_BUILD_SRCS := profile/loader.c profile/planner.c profile/keyref.c \
	profile/jobfile.c profile/jobscan.c
$(B)/libprofile.a: $(PROFILE_SRCS:%.c=$(B)/%.o)
$(B)/libprofile-build.a: $(PROFILE_BUILD_SRCS:%.c=$(B)/%.o)
# Order matters for static linking: the loader uses the model.
PROFILE_ARCHIVES = $(B)/libprofile-build.a $(B)/libprofile.a
PROFILE_BUILD_LIBS = $(INIPARSER_LIBS)
