export const where = 'helper is ESM too';
