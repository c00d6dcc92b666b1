import { argumentChecks } from '../errors/invalid-argument-error';

const MAX_TOOL_NAME_LENGTH = 64;

/** Letters that Unicode decomposition (NFD) does not reduce to ASCII. */
const TRANSLITERATIONS: Record<string, string> = {
	ß: 'ss',
	ẞ: 'SS',
	æ: 'ae',
	Æ: 'AE',
	œ: 'oe',
	Œ: 'OE',
	ø: 'o',
	Ø: 'O',
	ł: 'l',
	Ł: 'L',
	đ: 'd',
	Đ: 'D',
	ð: 'd',
	Ð: 'D',
	þ: 'th',
	Þ: 'Th',
	ı: 'i',
	ħ: 'h',
	Ħ: 'H',
	ŋ: 'ng',
	Ŋ: 'NG',
	ĸ: 'k',
	ŀ: 'l',
	Ŀ: 'L',
	ſ: 's',
};
const TRANSLITERABLE = new RegExp(`[${Object.keys(TRANSLITERATIONS).join('')}]`, 'g');

/**
 * n8n's exact tool name for a node (n8n-workflow `nodeNameToToolName`): every run of
 * characters outside `[a-zA-Z0-9_-]` becomes `_`, cut to 64 with trailing `_`/`-` removed.
 * n8n's agent maps engine results back by this name, so an engine driver must use it.
 * May return `''` (n8n then falls back to the node type's name) and collides easily
 * (`a _ b` → `a___b`, any all-non-ASCII name → `_`).
 */
export function nodeNameToN8nToolName(nodeName: string): string {
	argumentChecks('nodeNameToN8nToolName').string(nodeName, 'nodeName');
	let toolName = nodeName.replace(/[^a-zA-Z0-9_-]+/g, '_');
	if (toolName.length > MAX_TOOL_NAME_LENGTH) {
		toolName = toolName.slice(0, MAX_TOOL_NAME_LENGTH).replace(/[_-]+$/, '');
	}
	return toolName;
}

/**
 * A readable tool name for a node that always matches `^[a-zA-Z0-9_-]{1,64}$`: accents
 * transliterated (`Café Ñandú` → `Cafe_Nandu`), other runs of characters → one `_`
 * (`Date & Time` → `Date_Time`, `a _ b` → `a_b`). When letters had to be dropped (e.g.
 * Cyrillic or CJK) a short stable hash of the original name is appended, and a name with
 * nothing left becomes `tool_<hash>`, so distinct names stay distinct. With `taken`, the
 * result is never in it: `_2`, `_3`, … is appended within 64 characters.
 */
export function toolNameFromNodeName(nodeName: string, taken?: ReadonlySet<string>): string {
	const check = argumentChecks('toolNameFromNodeName');
	check.string(nodeName, 'nodeName');
	if (taken !== undefined && !(taken instanceof Set))
		check.fail('taken', 'a Set of names when given', taken);
	const ascii = nodeName
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(TRANSLITERABLE, (letter) => TRANSLITERATIONS[letter]);
	const droppedLetters = /\p{L}/u.test(ascii.replace(/[a-zA-Z]/g, ''));
	let base = ascii.replace(/[^a-zA-Z0-9-]+/g, '_').replace(/^_+|_+$/g, '');
	if (!/[a-zA-Z0-9]/.test(base)) {
		base = `tool_${shortHash(nodeName)}`;
	} else if (droppedLetters) {
		base = `${truncate(base, MAX_TOOL_NAME_LENGTH - 8)}_${shortHash(nodeName)}`;
	}
	base = truncate(base, MAX_TOOL_NAME_LENGTH);
	if (!taken?.has(base)) return base;
	for (let counter = 2; ; counter++) {
		const suffix = `_${counter}`;
		const candidate = `${truncate(base, MAX_TOOL_NAME_LENGTH - suffix.length)}${suffix}`;
		if (!taken.has(candidate)) return candidate;
	}
}

function truncate(name: string, length: number): string {
	if (name.length <= length) return name;
	const cut = name.slice(0, length).replace(/[_-]+$/, '');
	return cut === '' ? name.slice(0, length) : cut;
}

/** FNV-1a (32 bit) in base 36, 7 characters: stable across runs and platforms. */
function shortHash(text: string): string {
	let hash = 0x811c9dc5;
	for (let index = 0; index < text.length; index++) {
		hash ^= text.charCodeAt(index);
		hash = Math.imul(hash, 0x01000193);
	}
	return (hash >>> 0).toString(36).padStart(7, '0');
}
