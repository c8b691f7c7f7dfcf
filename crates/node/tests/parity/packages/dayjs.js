// dayjs: parsing, formatting and arithmetic on dates (UTC plugin for host independence).
const dayjs = require('dayjs');
const utc = require('dayjs/plugin/utc');
const relativeTime = require('dayjs/plugin/relativeTime');
const duration = require('dayjs/plugin/duration');
dayjs.extend(utc);
dayjs.extend(relativeTime);
dayjs.extend(duration);
const d = dayjs.utc('2024-02-28T13:45:30.123Z');
console.log(d.format(), d.format('YYYY-MM-DD HH:mm:ss.SSS dddd MMMM'), d.toISOString());
console.log(d.add(1, 'day').format('YYYY-MM-DD'), d.add(2, 'day').format('YYYY-MM-DD'), d.subtract(3, 'month').format('YYYY-MM'));
console.log(d.startOf('month').toISOString(), d.endOf('year').toISOString());
console.log(d.diff(dayjs.utc('2024-01-01'), 'day'), d.isBefore(dayjs.utc('2025-01-01')), d.day(), d.daysInMonth());
console.log(dayjs.utc('2024-01-01').from(dayjs.utc('2024-03-01')), dayjs.duration(90, 'minutes').format('H:mm'), dayjs.duration(90, 'minutes').asHours());
// humanize() measures from the wall clock, so it is not deterministic even under node.
console.log(dayjs.utc('2024-01-01T00:00:00Z').to(dayjs.utc('2024-01-01T01:29:00Z')));
console.log(dayjs('not a date').isValid(), dayjs.utc(0).unix(), dayjs.utc(1700000000000).format('ddd, D MMM YYYY'));
console.log(JSON.stringify(d), d.valueOf(), d.utcOffset());
