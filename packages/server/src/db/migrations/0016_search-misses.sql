CREATE TABLE "search_misses" (
	"day" date NOT NULL,
	"term" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "search_misses_day_term_pk" PRIMARY KEY("day","term")
);
