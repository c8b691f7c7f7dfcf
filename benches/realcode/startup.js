// startup: require lodash, zod and the openai SDK, use each a little, print one line.
const _ = require("lodash");
const { z } = require("zod");
const OpenAI = require("openai");
const Config = z.object({ model: z.string(), temperature: z.number().min(0).max(2), tags: z.array(z.string()).default([]) });
const config = Config.parse({ model: "gpt-test", temperature: 0.5, tags: ["a", "b", "c"] });
console.log(["lodash", _.VERSION, "zod", _.chunk(config.tags, 2).length, "openai", typeof OpenAI.OpenAI, typeof OpenAI.default].join(" "));
