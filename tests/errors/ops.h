/* stands in for the user header of bad_identities.json */
