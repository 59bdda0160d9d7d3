/* Whether a target may be written: the lab server's disks carry data.
 * Probing (what the target is, which signatures it carries, whether it is
 * mounted or the boot disk, its stable identities) is kept apart from
 * the decision, which is pure and unit-tested. */
#ifndef BUILDAPP_SAFETY_H
#define BUILDAPP_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

#define SAFETY_MAX_ITEMS 16
#define SAFETY_ITEM_MAX 128
#define SAFETY_REASON_MAX 1024

struct safety_facts {
	bool exists;
	bool block_device;
	bool partition; /* a partition, not a whole disk */
	char disk[64];  /* kernel name of the whole disk ("sda"), block only */
	/* Signatures libblkid found: "gpt", "dos", "ext4", "LVM2_member",
	 * "linux_raid_member"... */
	char signatures[SAFETY_MAX_ITEMS][SAFETY_ITEM_MAX];
	size_t n_signatures;
	bool unreadable; /* could not be opened to look for signatures */
	bool boot;    /* holds /, /boot or /usr of the running system */
	bool mounted; /* it, a partition or a device stacked on it is mounted,
		       * is swap, or is held by device mapper or md */
	char mounted_on[SAFETY_ITEM_MAX];
	/* Stable identities: /dev/disk/by-id names, serial, WWN/WWID. */
	char identities[SAFETY_MAX_ITEMS][SAFETY_ITEM_MAX];
	size_t n_identities;
	char ptuuid[SAFETY_ITEM_MAX]; /* the partition table's UUID, or "" */
	/* A GPT whose partitions are named as a kit's layout names them
	 * (layoutmark.h), and whether its disk GUID is that layout's mark. */
	bool kit_names;
	bool kit_mark;
};

struct safety_policy {
	bool wipe;            /* [host] wipe */
	const char *identity; /* [host] disk: by-id name, serial, WWN, "auto" */
	/* The partition table UUID of the layout buildapp made on this
	 * target before (recorded on RESULTS), or NULL: a target that
	 * carries it is buildapp's own and may be written without wipe. */
	const char *own_ptuuid;
};

/* Probes PATH (an image file, which may not exist yet, or a block
 * device).  Returns 0 or a negative errno (reported). */
int safety_probe(const char *path, struct safety_facts *ret);

/* 0 when the target may be written, else -EPERM with a sentence in
 * REASON (the signatures found included).  Never the boot disk, never a
 * mounted one; a block device named by an identity must match it; one
 * with signatures needs wipe and a matching identity, unless it carries
 * the layout buildapp made on it (own_ptuuid), or no signature but a GPT
 * with a kit's layout mark (safety_kit_layout); an existing file with
 * signatures needs wipe, unless likewise its own. */
int safety_decide(const struct safety_facts *facts,
		  const struct safety_policy *policy, char *reason, size_t len);

/* True when FACTS are of a target that holds a layout a kit made and
 * nothing else: a GPT carrying the mark (layoutmark.h), no other
 * signature. */
bool safety_kit_layout(const struct safety_facts *facts);

/* True when IDENTITY (as a profile writes it, with or without a
 * /dev/disk/by-id/ prefix) names one of FACTS' identities. */
bool safety_identity_matches(const struct safety_facts *facts,
			     const char *identity);

/* The SCSI/ATA unit serial number of whole disk NAME ("sda") from VPD
 * page 0x80 into BUF (left untouched when there is none). */
void safety_vpd_serial(const char *name, char *buf, size_t len);

#endif
