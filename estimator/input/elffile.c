/* input/elffile.c — libelf access to .roi.meta and .symtab, see elffile.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>

#include "base/arena.h"
#include "../../runtime/roi-crc32.h"
#include "base/readfile.h"
#include "input/elffile.h"

struct roi_elf {
	char *path;
	int fd;
	Elf *elf;
	size_t shstrndx;
	uint64_t size;          /* of the file */
};

static int damaged(const struct roi_elf *e, struct roi_err *err)
{
	int code = elf_errno();

	/* (libelf fails on some damage without an error of its own: it would say "no error") */
	return roi_err_set(err, "%s: damaged ELF file: %s", e->path, code ? elf_errmsg(code) : "unreadable");
}

/* The section's contents lie within the file: libelf fails on a section that does not without
 * saying why ("no error"), or first tries to allocate its size (2^64 bytes of a 20 kB file). Its
 * name, when known, says which. */
static int contents_in_file(const struct roi_elf *e, Elf_Scn *scn, const GElf_Shdr *sh, const char *name,
			    struct roi_err *err)
{
	if (sh->sh_type == SHT_NOBITS || (sh->sh_offset <= e->size && sh->sh_size <= e->size - sh->sh_offset))
		return 0;
	if (name)
		return roi_err_set(err, "%s: damaged ELF file: section %s extends past the end of the file "
				   "(truncated file?)", e->path, name);
	return roi_err_set(err, "%s: damaged ELF file: section %zu extends past the end of the file (truncated file?)",
			   e->path, elf_ndxscn(scn));
}

int roi_elf_open(const char *path, struct roi_elf **out, struct roi_err *err)
{
	struct roi_elf *e;
	struct stat st;
	GElf_Ehdr eh;
	size_t shnum;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return roi_err_set(err, "%s: libelf: %s", path, elf_errmsg(-1));
	fd = roi_open_regular(path, &st, err);
	if (fd < 0)
		return -1;
	e = calloc(1, sizeof *e);
	if (e)
		e->path = strdup(path);
	if (!e || !e->path) {
		free(e);
		close(fd);
		return roi_err_set(err, "%s: out of memory", path);
	}
	e->fd = fd;
	e->elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || gelf_getclass(e->elf) == ELFCLASSNONE) {
		roi_elf_close(e);
		return roi_err_set(err, "%s: not an ELF file", path);
	}
	/* libelf quietly sees no sections when their headers lie past the end of a truncated file. */
	shnum = gelf_getehdr(e->elf, &eh) && eh.e_shoff ? (eh.e_shnum ? eh.e_shnum : 1) : 0;
	if (shnum && (eh.e_shoff > (uint64_t)st.st_size ||
		      shnum * (uint64_t)eh.e_shentsize > (uint64_t)st.st_size - eh.e_shoff)) {
		roi_elf_close(e);
		return roi_err_set(err, "%s: damaged ELF file: section headers past the end (truncated file?)", path);
	}
	e->size = (uint64_t)st.st_size;
	if (elf_getshdrstrndx(e->elf, &e->shstrndx) != 0) {
		damaged(e, err);
		roi_elf_close(e);
		return -1;
	}
	/* Every section's name is in this one: past the end, no section can be named. */
	Elf_Scn *names = e->shstrndx ? elf_getscn(e->elf, e->shstrndx) : NULL;
	GElf_Shdr nsh;
	if (names && gelf_getshdr(names, &nsh) && contents_in_file(e, names, &nsh, NULL, err) != 0) {
		roi_elf_close(e);
		return -1;
	}
	elf_errno();    /* (a table libelf could not find is for the lookups to report) */
	*out = e;
	return 0;
}

void roi_elf_close(struct roi_elf *e)
{
	if (!e)
		return;
	if (e->elf)
		elf_end(e->elf);
	close(e->fd);
	free(e->path);
	free(e);
}

const char *roi_elf_path(const struct roi_elf *e)
{
	return e->path;
}

void roi_elf_info(const struct roi_elf *e, struct roi_elf_info *info)
{
	GElf_Ehdr eh;

	memset(info, 0, sizeof *info);
	if (!gelf_getehdr(e->elf, &eh))
		return;
	info->machine = eh.e_machine;
	info->bits = eh.e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32;
	info->little_endian = eh.e_ident[EI_DATA] == ELFDATA2LSB;
	info->relocatable = eh.e_type == ET_REL;
	info->flags = eh.e_flags;

	info->entry = eh.e_entry;
}

static const char *section_name(const struct roi_elf *e, Elf_Scn *scn, GElf_Shdr *sh)
{
	if (!gelf_getshdr(scn, sh))
		return NULL;
	return elf_strptr(e->elf, e->shstrndx, sh->sh_name);
}

/* The string table a symbol table's names are in (its sh_link) lies within the file. */
static int names_in_file(const struct roi_elf *e, const GElf_Shdr *symtab, struct roi_err *err)
{
	Elf_Scn *names = elf_getscn(e->elf, symtab->sh_link);
	GElf_Shdr sh;

	if (!names || !gelf_getshdr(names, &sh)) {
		elf_errno();    /* (no such section: looking a name up says so) */
		return 0;
	}
	return contents_in_file(e, names, &sh, elf_strptr(e->elf, e->shstrndx, sh.sh_name), err);
}

/* Appends the contents of every .roi.meta section (a relocatable link may keep several). */
static int read_meta(struct roi_elf *e, char **buf, size_t *size, struct roi_err *err)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	*buf = NULL;
	*size = 0;
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *name = section_name(e, scn, &sh);
		Elf_Data *d = NULL;

		if (!name)
			goto bad;
		if (strcmp(name, ".roi.meta") != 0)
			continue;
		if (sh.sh_type == SHT_NOBITS) {
			free(*buf);
			return roi_err_set(err, "%s: section .roi.meta has no contents", e->path);
		}
		if (contents_in_file(e, scn, &sh, name, err) != 0) {
			free(*buf);
			*buf = NULL;
			return -1;
		}
		if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
			goto bad;
		while ((d = elf_getdata(scn, d))) {
			if (!d->d_buf || !d->d_size)
				continue;
			if (*size + d->d_size + 1 > cap)
				*buf = roi_xrealloc(*buf, cap = 2 * (*size + d->d_size + 1), 1);
			memcpy(*buf + *size, d->d_buf, d->d_size);
			*size += d->d_size;
		}
		if (elf_errno() != 0)
			goto bad;
	}
	if (elf_errno() != 0)
		goto bad;
	return 0;
bad:
	free(*buf);
	*buf = NULL;
	return damaged(e, err);
}

int roi_elf_meta_records(struct roi_elf *e, struct roi_records *r, struct roi_err *err)
{
	size_t size, n = 0;

	memset(r, 0, sizeof *r);
	if (read_meta(e, &r->buf, &size, err) != 0)
		return -1;
	for (size_t i = 0; i < size; i++)
		n += (r->buf[i] == '\0' && i > 0 && r->buf[i - 1] != '\0');
	if (size > 0 && r->buf[size - 1] != '\0')
		n++;
	if (n == 0) {
		roi_records_free(r);
		return roi_err_set(err, "%s: no roi metadata (was it compiled with -fplugin=roi?)", e->path);
	}
	r->text = roi_xrealloc(NULL, n, sizeof *r->text);
	r->len = roi_xrealloc(NULL, n, sizeof *r->len);
	for (size_t i = 0; i < size;) {
		if (r->buf[i] == '\0') {
			i++;
			continue;
		}
		const char *end = memchr(r->buf + i, '\0', size - i);
		if (!end) {
			int k = (int)r->n + 1;
			roi_records_free(r);
			return roi_err_set(err, "%s: .roi.meta record %d: not NUL-terminated (truncated section?)",
					   e->path, k);
		}
		r->text[r->n] = r->buf + i;
		r->len[r->n++] = (size_t)(end - (r->buf + i));
		i = (size_t)(end - r->buf) + 1;
	}
	return 0;
}

void roi_records_free(struct roi_records *r)
{
	free(r->buf);
	free(r->text);
	free(r->len);
	memset(r, 0, sizeof *r);
}

/* Calls visit for every entry of .symtab that has a name and is defined, with its name, until one
 * returns non-zero, which is returned; -1 and err for damage or no symbol table. */
typedef int (*symtab_visit)(void *ctx, const char *name, const GElf_Sym *s, struct roi_err *err);

static int walk_symtab(struct roi_elf *e, symtab_visit visit, void *ctx, struct roi_err *err)
{
	Elf_Scn *scn = NULL;
	bool have_symtab = false;

	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			return damaged(e, err);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		have_symtab = true;
		if (contents_in_file(e, scn, &sh, elf_strptr(e->elf, e->shstrndx, sh.sh_name), err) != 0 ||
		    names_in_file(e, &sh, err) != 0)
			return -1;
		d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize)
			return damaged(e, err);
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *n;

			if (!gelf_getsym(d, (int)i, &s))
				return damaged(e, err);
			n = elf_strptr(e->elf, sh.sh_link, s.st_name);
			if (!n || !*n || s.st_shndx == SHN_UNDEF)
				continue;
			int rc = visit(ctx, n, &s, err);
			if (rc != 0)
				return rc;
		}
	}
	if (!have_symtab)
		return roi_err_set(err, "%s: no symbol table (stripped?)", e->path);
	return 0;
}

/* The symbol's fields; its section's when it is in one (not SHN_ABS, SHN_COMMON ...): whether it
 * is. */
static bool fill_symbol(struct roi_elf *e, const GElf_Sym *s, struct roi_symbol *sym)
{
	Elf_Scn *sec = s->st_shndx < SHN_LORESERVE ? elf_getscn(e->elf, s->st_shndx) : NULL;
	GElf_Shdr ss;

	memset(sym, 0, sizeof *sym);
	sym->value = s->st_value;
	sym->size = s->st_size;
	sym->shndx = s->st_shndx;
	sym->local = GELF_ST_BIND(s->st_info) == STB_LOCAL;
	sym->weak = GELF_ST_BIND(s->st_info) == STB_WEAK;
	sym->function = GELF_ST_TYPE(s->st_info) == STT_FUNC;
	sym->type = GELF_ST_TYPE(s->st_info);
	if (!sec || !gelf_getshdr(sec, &ss))
		return false;
	sym->code = (ss.sh_flags & SHF_EXECINSTR) != 0;
	sym->section = section_name(e, sec, &ss);
	return true;
}

struct each_symbol {
	struct roi_elf *e;
	roi_symbol_visit visit;
	void *ctx;
};

static int each_visit(void *ctx, const char *name, const GElf_Sym *s, struct roi_err *err)
{
	struct each_symbol *w = ctx;
	struct roi_symbol sym;

	return fill_symbol(w->e, s, &sym) ? w->visit(w->ctx, name, &sym, err) : 0;
}

int roi_elf_each_symbol(struct roi_elf *e, roi_symbol_visit visit, void *ctx, struct roi_err *err)
{
	return walk_symtab(e, each_visit, &(struct each_symbol){e, visit, ctx}, err);
}

struct find_symbol {
	struct roi_elf *e;
	const char *name;
	struct roi_symbol *sym;
};

static int find_visit(void *ctx, const char *name, const GElf_Sym *s, struct roi_err *err)
{
	struct find_symbol *w = ctx;

	(void)err;
	if (strcmp(name, w->name) != 0)
		return 0;
	fill_symbol(w->e, s, w->sym);
	return 1;
}

int roi_elf_symbol(struct roi_elf *e, const char *name, struct roi_symbol *sym, struct roi_err *err)
{
	int rc = walk_symtab(e, find_visit, &(struct find_symbol){e, name, sym}, err);

	if (rc < 0)
		return -1;
	return rc ? 0 : roi_err_set(err, "%s: no symbol %s", e->path, name);
}

static int damaged_section(const struct roi_elf *e, size_t index, const char *what, struct roi_err *err)
{
	return roi_err_set(err, "%s: damaged ELF file: section %zu: %s", e->path, index, what);
}

/* A reader that takes the file header as it lies in the file (simavr reads an Elf32_Ehdr with
 * read(2)) finds the section name table at the raw e_shstrndx: with SHN_XINDEX, or in a byte
 * order it does not swap, that is not the table libelf uses, and its section names are NULL. */
static int check_raw_header(const struct roi_elf *e, struct roi_err *err)
{
	unsigned char h[52];

	if (pread(e->fd, h, sizeof h, 0) != (ssize_t)sizeof h || h[EI_CLASS] != ELFCLASS32)
		return 0;       /* the callers check class and machine */
	if (h[EI_DATA] != ELFDATA2LSB || (size_t)(h[50] | h[51] << 8) != e->shstrndx)
		return roi_err_set(err, "%s: damaged ELF file: its header names section %u as the section name table, "
				   "which is %zu", e->path, (unsigned)(h[EI_DATA] == ELFDATA2LSB ? h[50] | h[51] << 8
								      : h[50] << 8 | h[51]), e->shstrndx);
	return 0;
}

int roi_elf_check_structure(struct roi_elf *e, struct roi_err *err)
{
	/* The sections simavr copies out of the file: they must have contents in it. */
	static const char *const loaded[] = {".text", ".data", ".eeprom", ".fuse", ".lock", ".mmcu", NULL};
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		size_t index = elf_ndxscn(scn);
		GElf_Shdr sh;
		const char *name = section_name(e, scn, &sh);
		Elf_Data *d;

		if (!name)
			return damaged_section(e, index, "its name is not in the section name table", err);
		if (contents_in_file(e, scn, &sh, name, err) != 0)
			return -1;
		d = elf_getdata(scn, NULL);
		if (!d)
			return damaged_section(e, index, "its contents cannot be read", err);
		if (sh.sh_type == SHT_NOBITS) {
			for (size_t i = 0; loaded[i]; i++)
				if (strcmp(name, loaded[i]) == 0)
					return damaged_section(e, index, "a section of the firmware's image has no contents",
							       err);
			continue;
		}
		if (d->d_size > 0 && !d->d_buf)
			return damaged_section(e, index, "its contents cannot be read", err);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (names_in_file(e, &sh, err) != 0)
			return -1;
		if (sh.sh_entsize != gelf_fsize(e->elf, ELF_T_SYM, 1, EV_CURRENT) || d->d_size != sh.sh_size)
			return damaged_section(e, index, "a symbol table with entries of the wrong size", err);
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;

			if (!gelf_getsym(d, (int)i, &s) || !elf_strptr(e->elf, sh.sh_link, s.st_name))
				return damaged_section(e, index, "a symbol's name is not in its string table", err);
		}
	}
	if (elf_errno() != 0)
		return damaged(e, err);
	return check_raw_header(e, err);
}

int roi_elf_each_section(struct roi_elf *e, roi_section_visit visit, void *ctx, struct roi_err *err)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *name = section_name(e, scn, &sh);
		Elf_Data *d = name ? elf_getdata(scn, NULL) : NULL;
		int rc;

		if (!d)
			return damaged(e, err);
		rc = visit(ctx, elf_ndxscn(scn), name, sh.sh_type == SHT_NOBITS ? NULL : d->d_buf,
			   sh.sh_type == SHT_NOBITS ? 0 : d->d_size, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}
int roi_elf_each_code(struct roi_elf *e, roi_code_visit visit, void *ctx, struct roi_err *err)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *name = section_name(e, scn, &sh);
		Elf_Data *d;
		int rc;

		if (!name)
			return damaged(e, err);
		if ((sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) != (SHF_ALLOC | SHF_EXECINSTR) || sh.sh_type == SHT_NOBITS ||
		    !sh.sh_size)
			continue;
		if (contents_in_file(e, scn, &sh, name, err) != 0)
			return -1;
		d = elf_getdata(scn, NULL);
		if (!d || !d->d_buf || d->d_size != sh.sh_size)
			return damaged(e, err);
		rc = visit(ctx, name, sh.sh_addr, d->d_buf, d->d_size, err);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int roi_elf_code_size(struct roi_elf *e, uint64_t *bytes, struct roi_err *err)
{
	Elf_Scn *scn = NULL;

	*bytes = 0;
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return damaged(e, err);
		if ((sh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) == (SHF_ALLOC | SHF_EXECINSTR))
			*bytes += sh.sh_size;
	}
	return 0;
}

int roi_elf_image_crc(struct roi_elf *e, uint32_t *crc, struct roi_err *err)
{
	Elf_Scn *scn = NULL;

	*crc = 0;
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d = NULL;

		if (!gelf_getshdr(scn, &sh))
			return damaged(e, err);
		if (!(sh.sh_flags & SHF_ALLOC) || sh.sh_type == SHT_NOBITS)
			continue;
		if (contents_in_file(e, scn, &sh, elf_strptr(e->elf, e->shstrndx, sh.sh_name), err) != 0)
			return -1;
		uint64_t where[2] = {sh.sh_addr, sh.sh_size};
		*crc = __roi_crc32(*crc, where, sizeof where);
		while ((d = elf_getdata(scn, d)))
			if (d->d_buf)
				*crc = __roi_crc32(*crc, d->d_buf, d->d_size);
	}
	return 0;
}

int roi_elf_sections(struct roi_elf *e, struct roi_elf_section **out, size_t *n, struct roi_err *err)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *name = section_name(e, scn, &sh);
		Elf_Data *d;

		if (name && contents_in_file(e, scn, &sh, name, err) != 0) {
			free(*out);
			*out = NULL;
			return -1;
		}
		d = name && sh.sh_type != SHT_NOBITS ? elf_getdata(scn, NULL) : NULL;
		if (!name || (sh.sh_type != SHT_NOBITS && !d)) {
			free(*out);
			*out = NULL;
			return damaged(e, err);
		}
		if (*n == cap)
			*out = roi_xrealloc(*out, cap = 2 * cap + 16, sizeof **out);
		(*out)[(*n)++] = (struct roi_elf_section){
			.name = name, .addr = sh.sh_addr, .size = sh.sh_size,
			.alloc = sh.sh_flags & SHF_ALLOC, .write = sh.sh_flags & SHF_WRITE,
			.exec = sh.sh_flags & SHF_EXECINSTR,
			.data = sh.sh_type == SHT_NOBITS || d->d_size < sh.sh_size ? NULL : d->d_buf,
		};
	}
	return 0;
}

int roi_elf_symbols(struct roi_elf *e, struct roi_elf_sym **out, size_t *n, struct roi_err *err)
{
	Elf_Scn *scn = NULL;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh))
			goto bad;
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (contents_in_file(e, scn, &sh, elf_strptr(e->elf, e->shstrndx, sh.sh_name), err) != 0 ||
		    names_in_file(e, &sh, err) != 0) {
			free(*out);
			*out = NULL;
			return -1;
		}
		d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize)
			goto bad;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, (int)i, &s))
				goto bad;
			name = elf_strptr(e->elf, sh.sh_link, s.st_name);
			if (!name || !*name || s.st_shndx == SHN_UNDEF)
				continue;
			if (*n == cap)
				*out = roi_xrealloc(*out, cap = 2 * cap + 64, sizeof **out);
			(*out)[(*n)++] = (struct roi_elf_sym){
				.name = name, .value = s.st_value, .size = s.st_size,
				.type = GELF_ST_TYPE(s.st_info), .local = GELF_ST_BIND(s.st_info) == STB_LOCAL,
				.weak = GELF_ST_BIND(s.st_info) == STB_WEAK,
				.shndx = s.st_shndx,
			};
		}
	}
	return 0;
bad:
	free(*out);
	*out = NULL;
	return damaged(e, err);
}
