"""An independent, brute-force reference of the movement rules, to cross-check the ASP encodings."""
