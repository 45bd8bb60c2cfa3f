from pitchkeeper.cli import main

main()
