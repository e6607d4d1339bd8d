"""The border: whatever comes from outside is read here, one way (free text's one
cleaner and its Unicode tables, the look-alike check, the number reader, an imported
table's schema), and what goes out to a spreadsheet is neutralised here."""
