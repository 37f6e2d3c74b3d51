-- The catalogue's version as one call. An app server with several campuses asks the versions of
-- the campuses of a PostgreSQL server that its requests wait for in one statement
-- (campuses/campus-versions.ts). A SELECT of each campus's table was planned again in every such
-- statement, each branch opening and locking its table: half of PostgreSQL's work in a round trip
-- of 25 campuses. A PL/pgSQL function's statement is planned once per connection, and the call is
-- all that each statement plans.
CREATE OR REPLACE FUNCTION public.catalogue_version_now() RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT version FROM public.catalogue_version WHERE id = 1);
END
$$;
